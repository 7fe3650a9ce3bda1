/** Seeds a running server through its public API, as a client would, and returns what it created. */
export async function seedThroughApi(
  url: string,
  token: string,
  { groups, files }: { groups: number; files: number },
): Promise<{ groupIds: string[]; fileIds: string[] }> {
  const authorization = `Bearer ${token}`
  const groupIds: string[] = []
  for (let i = 0; i < groups; i++) {
    const res = await fetch(`${url}/v3/groups/public`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `bench-group-${i}` }),
    })
    groupIds.push(((await ok(res)) as { data: { id: string } }).data.id)
  }
  const fileIds: string[] = []
  for (let i = 0; i < files; i++) {
    const form = new FormData()
    form.set('file', new Blob([`bench file ${i}\n`], { type: 'text/plain' }), `bench-${i}.txt`)
    form.set('network', 'public')
    const res = await fetch(`${url}/v3/files`, { method: 'POST', headers: { authorization }, body: form })
    fileIds.push(((await ok(res)) as { data: { id: string } }).data.id)
  }
  return { groupIds, fileIds }
}

async function ok(res: Response): Promise<unknown> {
  const body = await res.json()
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${JSON.stringify(body)}`)
  return body
}
