import { CliError } from './cli-error.js'
import { CLIENT_COMMANDS } from './client-commands.js'
import { connectionOptions } from './command-kit.js'

/** The server-side commands and their flags (cli.ts parses them), each with --help. */
const SERVER_FLAGS: Record<string, string[]> = {
  serve: ['--config', '--json'],
  token: ['--sub', '--org', '--scope', '--expires-in', '--operator', '--json'],
  migrate: ['--json'],
  backup: ['--json'],
  restore: ['--json'],
  completion: [],
}
const SHELLS = ['bash', 'zsh', 'fish'] as const

export const COMPLETION_USAGE = `Usage: pinfold completion <bash|zsh|fish>

Prints a completion script for the shell: commands, and each command's flags.

Examples:
  source <(pinfold completion bash)                          in ~/.bashrc
  pinfold completion zsh > "\${fpath[1]}/_pinfold"            then restart zsh
  pinfold completion fish > ~/.config/fish/completions/pinfold.fish
`

/** Every command with its flags (long forms), from the same option tables the commands parse with. */
function commandFlags(): Map<string, string[]> {
  const flags = new Map<string, string[]>()
  for (const [command, list] of Object.entries(SERVER_FLAGS)) flags.set(command, [...list, '--help'])
  for (const [command, spec] of Object.entries(CLIENT_COMMANDS)) {
    flags.set(
      command,
      Object.keys({ ...spec.options, ...connectionOptions }).map((name) => `--${name}`),
    )
  }
  return flags
}

export function completionScript(shell: string | undefined): string {
  const flags = commandFlags()
  const commands = [...flags.keys()]
  if (shell === 'bash') {
    const cases = [...flags].map(([command, list]) => `    ${command}) flags="${list.join(' ')}" ;;`).join('\n')
    return `# pinfold completion for bash: source <(pinfold completion bash)
_pinfold() {
  local cur=\${COMP_WORDS[COMP_CWORD]}
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${commands.join(' ')}" -- "$cur"))
    return
  fi
  local flags=""
  case "\${COMP_WORDS[1]}" in
${cases}
    completion) COMPREPLY=($(compgen -W "${SHELLS.join(' ')}" -- "$cur")); return ;;
    pin) if [ "$COMP_CWORD" -eq 2 ]; then COMPREPLY=($(compgen -W "add ls rm" -- "$cur")); return; fi ;;
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$flags" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
}
complete -o filenames -F _pinfold pinfold
`
  }
  if (shell === 'zsh') {
    const cases = [...flags]
      .map(
        ([command, list]) => `    ${command}) _arguments '*:file:_files' ${list.map((f) => `'${f}[]'`).join(' ')} ;;`,
      )
      .join('\n')
    return `#compdef pinfold
# pinfold completion for zsh: pinfold completion zsh > "\${fpath[1]}/_pinfold"
_pinfold() {
  if (( CURRENT == 2 )); then
    compadd -- ${commands.join(' ')}
    return
  fi
  case "$words[2]" in
${cases}
  esac
}
_pinfold "$@"
`
  }
  if (shell === 'fish') {
    const lines = [
      '# pinfold completion for fish: pinfold completion fish > ~/.config/fish/completions/pinfold.fish',
      `complete -c pinfold -f -n __fish_use_subcommand -a "${commands.join(' ')}"`,
      'complete -c pinfold -f -n "__fish_seen_subcommand_from pin" -a "add ls rm"',
      `complete -c pinfold -f -n "__fish_seen_subcommand_from completion" -a "${SHELLS.join(' ')}"`,
    ]
    for (const [command, list] of flags) {
      for (const flag of list)
        lines.push(`complete -c pinfold -n "__fish_seen_subcommand_from ${command}" -l ${flag.slice(2)}`)
    }
    return `${lines.join('\n')}\n`
  }
  throw new CliError(`completion takes bash, zsh or fish${shell ? `, not ${JSON.stringify(shell)}` : ''}`, 2)
}
