/** A failure the CLI reports as one line on stderr, with its exit code, and no stack. */
export class CliError extends Error {
  constructor(
    message: string,
    /** 2 for a usage mistake (as the usage text does), 1 for everything else. */
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message)
    this.name = 'CliError'
  }
}
