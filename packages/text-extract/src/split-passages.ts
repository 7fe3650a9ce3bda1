const sentences = new Intl.Segmenter('en', { granularity: 'sentence' })
/**
 * Characters segmented at a time. V8's segmenter slows down far more than linearly on long strings
 * (200 KB of prose took 1.7 s, 1 MB took 33 s), so text is fed to it in windows this long.
 */
const WINDOW_CHARS = 4096

/**
 * Splits text into passages of at most `passageChars` characters for embedding. Passages end on
 * sentence boundaries (Unicode sentence segmentation, which also breaks at line ends); a sentence
 * longer than a passage is split between words. Each passage repeats the last sentences (or words)
 * of the previous one, up to `overlapChars`, so a thought that straddles a boundary is seen whole.
 */
export function splitPassages(text: string, passageChars: number, overlapChars: number): string[] {
  const pieces: string[] = []
  // A run of line breaks and blanks ends a sentence once; segmenting each break of it (an HTML page of
  // nested blocks yields thousands) costs time for nothing.
  for (const segment of sentencesOf(text.replace(/\n\s*/g, '\n'))) {
    const sentence = segment.replace(/\s+/g, ' ').trim()
    if (sentence === '') continue
    if (sentence.length <= passageChars) pieces.push(sentence)
    else for (const word of sentence.split(' ')) pieces.push(...hardSplit(word, passageChars))
  }

  const passages: string[] = []
  let current: string[] = []
  let length = 0 // of current.join(' ')
  for (const piece of pieces) {
    if (current.length > 0 && length + 1 + piece.length > passageChars) {
      passages.push(current.join(' '))
      current = overlapTail(current, overlapChars, passageChars - piece.length - 1)
      length = current.join(' ').length
    }
    length += (current.length > 0 ? 1 : 0) + piece.length
    current.push(piece)
  }
  if (current.length > 0) passages.push(current.join(' '))
  return passages
}

/** The trailing pieces that fit in `overlapChars`, and leave room (`room`) for the next piece. */
function overlapTail(pieces: readonly string[], overlapChars: number, room: number): string[] {
  const limit = Math.min(overlapChars, room)
  const tail: string[] = []
  let length = -1
  for (let i = pieces.length - 1; i >= 0; i--) {
    if (length + 1 + pieces[i]!.length > limit) break
    length += 1 + pieces[i]!.length
    tail.unshift(pieces[i]!)
  }
  return tail
}

/** A "word" longer than a passage (a hash, a base64 blob) is cut into passage-sized slices. */
function hardSplit(word: string, size: number): string[] {
  const slices: string[] = []
  for (let start = 0; start < word.length; start += size) slices.push(word.slice(start, start + size))
  return slices
}

/**
 * The sentences of `text`, segmented window by window. A window's last sentence may be cut by the
 * window's end, so it is segmented again at the start of the next window. A sentence longer than a
 * whole window is cut at its last blank (it is then split between words like any over-long sentence).
 */
function* sentencesOf(text: string): Generator<string> {
  let start = 0
  while (start < text.length) {
    let end = Math.min(text.length, start + WINDOW_CHARS)
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end-- // keep a surrogate pair whole
    let last = { segment: '', index: 0 }
    for (const segment of sentences.segment(text.slice(start, end))) {
      if (last.segment !== '') yield last.segment
      last = segment
    }
    if (end === text.length) {
      yield last.segment
      start = end
    } else if (last.index > 0) {
      start += last.index
    } else {
      const blank = last.segment.search(/\s\S*$/)
      const cut = blank > 0 ? blank : last.segment.length
      yield last.segment.slice(0, cut)
      start += cut
    }
  }
}
