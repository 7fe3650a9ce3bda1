import { CliError } from './cli-error.js'
import { formatBytes, formatDuration, formatRate } from './format.js'

/** `bar` redraws one line on a terminal; `lines` prints a line per tenth (logs, CI); `none` is quiet. */
export type ProgressMode = 'bar' | 'lines' | 'none'

export interface Progress {
  /** `bytes` more have been sent (or received). */
  advance(bytes: number): void
  /** The transfer finished: the last figures, and the bar's line closed. */
  done(): void
}

interface ProgressTarget {
  write(text: string): unknown
  readonly isTTY?: boolean | undefined
  readonly columns?: number | undefined
}

/** `auto` picks the bar on a terminal and plain lines otherwise. */
export function progressMode(flag: string | undefined, target: ProgressTarget): ProgressMode {
  if (flag === undefined || flag === 'auto') return target.isTTY ? 'bar' : 'lines'
  if (flag === 'bar' || flag === 'lines' || flag === 'none') return flag
  throw new CliError(`--progress must be auto, bar, lines or none; got ${JSON.stringify(flag)}`, 2)
}

const REDRAW_MS = 100

export interface ProgressOptions {
  /** Bytes already transferred by an earlier run (a resumed upload): shown, not counted in the rate. */
  from?: number | undefined
  now?: (() => number) | undefined
}

/**
 * Bytes, rate and ETA of one transfer of `total` bytes. The rate is the average since the start
 * of this run (bytes a resumed upload had sent before are not in it): steadier to read than an
 * instantaneous one, and honest for the ETA of a transfer at a steady pace.
 */
export function createProgress(
  mode: ProgressMode,
  target: ProgressTarget,
  label: string,
  total: number,
  { from = 0, now = () => performance.now() }: ProgressOptions = {},
): Progress {
  const started = now()
  let sent = from
  let lastDraw = Number.NEGATIVE_INFINITY
  let lastTenth = -1
  const figures = () => {
    const elapsed = Math.max((now() - started) / 1000, 1e-3)
    const rate = (sent - from) / elapsed
    const eta = rate > 0 ? (total - sent) / rate : Number.POSITIVE_INFINITY
    const percent = total > 0 ? Math.min(100, Math.floor((sent / total) * 100)) : 100
    return { rate, eta, percent, elapsed }
  }
  const bar = (final: boolean) => {
    const { rate, eta, percent, elapsed } = figures()
    const width = Math.max(10, Math.min(30, (target.columns ?? 80) - 70))
    const filled = Math.round((percent / 100) * width)
    const tail = final ? `in ${formatDuration(elapsed)}` : `ETA ${formatDuration(eta)}`
    target.write(
      `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(percent).padStart(3)}% ` +
        `${formatBytes(sent)} / ${formatBytes(total)}  ${formatRate(rate)}  ${tail}\u001b[K${final ? '\n' : ''}`,
    )
  }
  const line = (final: boolean) => {
    const { rate, eta, percent, elapsed } = figures()
    const tail = final ? `done in ${formatDuration(elapsed)}` : `ETA ${formatDuration(eta)}`
    target.write(`${label}: ${percent}% ${formatBytes(sent)} of ${formatBytes(total)}, ${formatRate(rate)}, ${tail}\n`)
  }
  return {
    advance(bytes) {
      // a multipart body carries a few hundred bytes of part headers beyond the files' sizes
      sent = total > 0 ? Math.min(total, sent + bytes) : sent + bytes
      if (mode === 'bar') {
        const t = now()
        if (t - lastDraw >= REDRAW_MS) {
          lastDraw = t
          bar(false)
        }
      } else if (mode === 'lines') {
        const tenth = total > 0 ? Math.floor((sent / total) * 10) : 10
        if (tenth > lastTenth && tenth < 10) {
          lastTenth = tenth
          line(false)
        }
      }
    },
    done() {
      if (mode === 'bar') bar(true)
      else if (mode === 'lines') line(true)
    },
  }
}
