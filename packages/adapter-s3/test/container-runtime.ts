import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'

/**
 * Whether a container engine answers, asked once. testcontainers takes ~1 s to import, so it is
 * imported (dynamically) only when some engine could be configured at all; without an engine its
 * probe then rejects within milliseconds ("Could not find a working container runtime strategy").
 */
export async function containerRuntimeAvailable(): Promise<boolean> {
  if (!engineMayBeConfigured()) return false
  try {
    const { getContainerRuntimeClient } = await import('testcontainers')
    await getContainerRuntimeClient()
    return true
  } catch {
    return false
  }
}

/** The places testcontainers' strategies look; none present means none can succeed. */
function engineMayBeConfigured(): boolean {
  if (process.platform === 'win32' || process.env.DOCKER_HOST || process.env.TESTCONTAINERS_HOST_OVERRIDE) return true
  const runtimeDir = process.env.XDG_RUNTIME_DIR
  return [
    '/var/run/docker.sock',
    path.join(homedir(), '.testcontainers.properties'),
    path.join(homedir(), '.docker', 'run', 'docker.sock'),
    path.join(homedir(), '.docker', 'desktop', 'docker.sock'),
    ...(runtimeDir ? [path.join(runtimeDir, 'docker.sock'), path.join(runtimeDir, 'podman', 'podman.sock')] : []),
  ].some((candidate) => existsSync(candidate))
}
