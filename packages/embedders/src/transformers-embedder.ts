import { type Embedder, optionChecks, PinfoldError, throwIfAborted } from '@pinfold/interface'
import { assertDimensions, l2Normalize } from './vector-math.js'

export interface TransformersEmbedderOptions {
  /** Directory holding model folders: `<modelPath>/<model>/config.json`, `tokenizer.json`, `onnx/model.onnx`. */
  modelPath: string
  /** Folder name of the model under `modelPath`, e.g. `all-MiniLM-L6-v2`. */
  model: string
  /** The model's output size, e.g. 384 for MiniLM; needed before the model loads. */
  dimensions: number
  /** How token vectors become one vector. Default `mean` (sentence-transformers models); BGE uses `cls`. */
  pooling?: 'mean' | 'cls'
  /** ONNX weights variant. Default `fp32`. */
  dtype?: 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4'
  /** Prepended to queries / documents for asymmetric models (E5: `query: ` / `passage: `). */
  queryPrefix?: string
  documentPrefix?: string
}

/** The part of `@huggingface/transformers` this embedder uses. */
interface TransformersModule {
  env: { allowRemoteModels: boolean; localModelPath: string }
  pipeline(
    task: 'feature-extraction',
    model: string,
    options: { dtype: string; device: 'cpu' },
  ): Promise<
    (
      texts: string[],
      options: { pooling: string; normalize: boolean },
    ) => Promise<{ data: Float32Array; dims: number[] }>
  >
}

const TRANSFORMERS_PACKAGE = '@huggingface/transformers'

/**
 * Runs an ONNX sentence-embedding model (MiniLM, BGE, E5, GTE…) in-process with transformers.js,
 * from a local directory only — nothing is downloaded. `@huggingface/transformers` is an optional
 * peer dependency, imported on first use; install it with `ONNXRUNTIME_NODE_INSTALL=skip`.
 *
 * transformers.js keeps its settings in a global `env`: this sets `allowRemoteModels = false` and
 * `localModelPath = modelPath` for the whole process.
 */
export function createTransformersEmbedder(options: TransformersEmbedderOptions): Embedder {
  const check = optionChecks('@pinfold/embedders', 'createTransformersEmbedder')
  const modelPath = check.nonEmptyString('modelPath', options.modelPath)
  const model = check.nonEmptyString('model', options.model)
  const dimensions = check.positiveInteger('dimensions', options.dimensions)
  const pooling = options.pooling ?? 'mean'
  const dtype = options.dtype ?? 'fp32'
  const id = `transformers:${model}/${dtype}/${pooling}@${dimensions}`

  let extractor: ReturnType<TransformersModule['pipeline']> | undefined
  const load = () => {
    extractor ??= importTransformers().then((transformers) => {
      transformers.env.allowRemoteModels = false
      transformers.env.localModelPath = modelPath
      return transformers.pipeline('feature-extraction', model, { dtype, device: 'cpu' })
    })
    extractor.catch(() => {
      extractor = undefined // a later call may succeed once the package or the model is in place
    })
    return extractor
  }

  return {
    id,
    dimensions,
    async embed(texts, callOptions) {
      throwIfAborted(callOptions?.signal)
      if (texts.length === 0) return []
      const extract = await load()
      const prefix = (callOptions?.purpose === 'query' ? options.queryPrefix : options.documentPrefix) ?? ''
      const output = await extract(
        texts.map((text) => prefix + text),
        { pooling, normalize: true },
      )
      const size = output.dims.at(-1) ?? 0
      assertDimensions({ length: size }, dimensions, id)
      return texts.map((_, i) => l2Normalize(output.data.slice(i * size, (i + 1) * size)))
    },
  }
}

async function importTransformers(): Promise<TransformersModule> {
  try {
    // A variable specifier keeps bundlers and TypeScript from requiring the optional package.
    const specifier: string = TRANSFORMERS_PACKAGE
    return (await import(specifier)) as TransformersModule
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND'
    throw new PinfoldError(
      'UNAVAILABLE',
      missing
        ? `@pinfold/embedders createTransformersEmbedder needs the optional peer dependency ${TRANSFORMERS_PACKAGE}, ` +
            `which is not installed: run ONNXRUNTIME_NODE_INSTALL=skip npm install ${TRANSFORMERS_PACKAGE}`
        : `@pinfold/embedders createTransformersEmbedder could not load ${TRANSFORMERS_PACKAGE}: ${String(err)}`,
      { cause: err },
    )
  }
}
