import { createRequire } from 'node:module'
import type winkNLP from 'wink-nlp'
import type { ItemToken, ItsFunction } from 'wink-nlp'

/** One token of English text as the embedders see it. */
export interface AnalyzedToken {
  /** Lower-cased surface form, the key into the word-vector vocabulary. */
  normal: string
  /** Porter2 stem of `normal` (or `normal` itself for numbers, URLs, e-mails…), the lexical feature. */
  stem: string
  /** Function words ("the", "of", "is") carry no topic; the lexical component skips them. */
  isStopWord: boolean
}

// Token types that carry content; punctuation, symbols, currency signs, emoji and unknowns are dropped.
const CONTENT_TYPES = new Set(['word', 'number', 'url', 'email', 'hashtag', 'mention'])
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u

let nlp: ReturnType<typeof winkNLP> | undefined

/**
 * wink-nlp and its English model (~25 MB resident) load on first use rather than on import: every
 * Pinfold server imports this package, and most never embed a word. Both are CommonJS, so a
 * synchronous require keeps `analyzeText` synchronous.
 */
function loadNlp(): ReturnType<typeof winkNLP> {
  const require = createRequire(import.meta.url)
  const createNlp: typeof winkNLP = require('wink-nlp')
  // Tokenization only: the empty pipe skips sentence detection, POS tagging and NER, which we don't use.
  return createNlp(require('wink-eng-lite-web-model'), [])
}

/** Tokenizes English text with wink-nlp and returns its content tokens in order. */
export function analyzeText(text: string): AnalyzedToken[] {
  nlp ??= loadNlp()
  const its = nlp.its
  // wink-nlp's typings give `its.stem` an extra `addons` parameter that `out` does not accept; it works at run time.
  const stem = its.stem as unknown as ItsFunction<string>
  const tokens: AnalyzedToken[] = []
  nlp
    .readDoc(text)
    .tokens()
    .each((token: ItemToken) => {
      const type = token.out(its.type)
      const normal = token.out(its.normal)
      if (!CONTENT_TYPES.has(type) || !HAS_LETTER_OR_DIGIT.test(normal)) return
      // Contractions ("'s", "n't" → "not") are grammatical glue; treat them like stop words.
      const isStopWord = token.out(its.stopWordFlag) === true || normal.startsWith("'")
      tokens.push({ normal, stem: type === 'word' ? token.out(stem) : normal, isStopWord })
    })
  return tokens
}

/** The set of stemmed content words of a text (stop words excluded), for overlap checks. */
export function contentStems(text: string): Set<string> {
  return new Set(
    analyzeText(text)
      .filter((t) => !t.isStopWord)
      .map((t) => t.stem),
  )
}
