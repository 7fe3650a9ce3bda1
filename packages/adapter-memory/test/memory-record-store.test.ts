import { describeRecordStore } from '@pinfold/conformance'
import { createMemoryRecordStore } from '../src/index.js'

describeRecordStore('memory', async () => ({ store: createMemoryRecordStore(), capabilities: { vectors: true } }))
