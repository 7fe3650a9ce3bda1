import { describeChangeFeed } from '@pinfold/conformance'
import { createMemoryChangeFeed } from '../src/index.js'

describeChangeFeed('memory', async () => {
  const feed = createMemoryChangeFeed()
  return { feeds: [feed, feed] }
})
