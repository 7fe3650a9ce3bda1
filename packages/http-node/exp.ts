import { createServer } from 'node:http'
import { createNodeHandler } from './src/node-handler.js'
import { parseMultipart } from './src/multipart.js'
const mode = process.argv[2]
const handler = async (request: Request) => {
  if (mode === 'raw') { for await (const _ of request.body!) {} }
  else for await (const part of parseMultipart(request)) { if (part.kind === 'file') for await (const _ of part.content) {} }
  return new Response('{}')
}
const server = createServer(createNodeHandler(handler))
server.listen(45680, () => console.log(JSON.stringify({ url: 'http://127.0.0.1:45680', token: 'x' })))
