import { execFile } from 'node:child_process'

/**
 * Uploads a file as multipart/form-data with curl: a C client that streams from disk, so the
 * figure measures the server rather than a JavaScript client competing for the same two cores.
 */
export function curlUpload(
  url: string,
  token: string,
  path: string,
  fields: Record<string, string> = {},
): Promise<{ status: number; body: unknown; seconds: number }> {
  const args = [
    '-s',
    '-S',
    '-w',
    '\n%{http_code} %{time_total}',
    '-H',
    `Authorization: Bearer ${token}`,
    '-F',
    `file=@${path}`,
  ]
  for (const [name, value] of Object.entries(fields)) args.push('-F', `${name}=${value}`)
  args.push(`${url}/v3/files`)
  return new Promise((resolve, reject) => {
    execFile('curl', args, { maxBuffer: 1024 * 1024 }, (error, stdout) => {
      if (error) return reject(error)
      const lines = stdout.trimEnd().split('\n')
      const [status, seconds] = lines.pop()!.split(' ')
      resolve({ status: Number(status), body: JSON.parse(lines.join('\n')), seconds: Number(seconds) })
    })
  })
}
