import { describeImageTransformer } from '@pinfold/conformance'
import { createSharpTransformer } from '../src/index.js'

describeImageTransformer('sharp', () =>
  createSharpTransformer({ maxInputPixels: 1_000_000, maxInputBytes: 1024 * 1024, maxDimension: 100 }),
)
