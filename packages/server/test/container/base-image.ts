import { join } from 'node:path'
import { BASE_IMAGE, type Engine, engineRun, repoRoot, run } from './engine.js'

/**
 * The Dockerfile's base image in the engine's store: already there, pulled from its registry, or,
 * where no registry answers, made locally by scripts/container/local-base-image.sh (podman as root:
 * debootstrap, then `podman import` under the official name). Returns how it was found.
 */
export async function ensureBaseImage(engine: Engine): Promise<string> {
  if ((await engineRun(engine, ['image', 'inspect', BASE_IMAGE])).code === 0) {
    const label = await engineRun(engine, [
      'image',
      'inspect',
      '--format',
      '{{index .Config.Labels "org.opencontainers.image.description"}}',
      BASE_IMAGE,
    ])
    return label.stdout.includes('local stand-in') ? 'the local stand-in, already made' : 'already in the store'
  }
  const pull = await engineRun(engine, ['pull', BASE_IMAGE], 10 * 60_000)
  if (pull.code === 0) return 'pulled from its registry'
  if (engine.command !== 'podman' || process.getuid?.() !== 0) {
    throw new Error(`${BASE_IMAGE} is not in the store and cannot be pulled: ${pull.stderr.trim()}`)
  }
  const script = join(repoRoot, 'scripts/container/local-base-image.sh')
  const made = await run(script, [], 20 * 60_000)
  if (made.code !== 0) throw new Error(`no registry (${pull.stderr.trim()}), and ${script} failed:\n${made.stderr}`)
  return `made locally (no registry: ${pull.stderr.trim().split('\n').at(-1)})`
}
