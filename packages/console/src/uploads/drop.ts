/** What one drop holds: files on their own, and folders with every file's path inside them. */
export type Dropped =
  | { kind: 'file'; file: File }
  | { kind: 'folder'; name: string; parts: { file: File; path: string }[] }

/**
 * The files and folders of a drop. A folder is walked through the entries API (`webkitGetAsEntry`,
 * in every current browser), keeping each file's path below the folder (`site/css/style.css`), as
 * the folder picker's `webkitRelativePath` does. Entries must be taken from the items while the
 * drop event runs: the data transfer is emptied once it returns.
 */
export async function readDrop(transfer: DataTransfer): Promise<Dropped[]> {
  const items = [...transfer.items].filter((item) => item.kind === 'file')
  const entries = items.map((item) => ({ entry: item.webkitGetAsEntry?.() ?? null, file: item.getAsFile() }))
  const files = [...transfer.files]
  const dropped: Dropped[] = []
  for (const { entry, file } of entries) {
    if (entry?.isDirectory) {
      const parts: { file: File; path: string }[] = []
      await walk(entry as FileSystemDirectoryEntry, entry.name, parts)
      dropped.push({ kind: 'folder', name: entry.name, parts })
    } else if (file) {
      dropped.push({ kind: 'file', file })
    }
  }
  // items without entries (a page's own DataTransfer of files): their files as they are
  if (items.length === 0) for (const file of files) dropped.push({ kind: 'file', file })
  return dropped
}

async function walk(directory: FileSystemDirectoryEntry, path: string, into: { file: File; path: string }[]) {
  for (const entry of await readAllEntries(directory)) {
    const below = `${path}/${entry.name}`
    if (entry.isDirectory) await walk(entry as FileSystemDirectoryEntry, below, into)
    else into.push({ file: await fileOf(entry as FileSystemFileEntry), path: below })
  }
}

/** `readEntries` answers in batches (Chromium: 100 at a time) until it answers an empty one. */
async function readAllEntries(directory: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = directory.createReader()
  const all: FileSystemEntry[] = []
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject))
    if (batch.length === 0) return all
    all.push(...batch)
  }
}

const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject))
