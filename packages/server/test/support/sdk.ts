import { PinataSDK } from 'pinata'

/**
 * The official SDK pointed at a Pinfold server at `url`, configured exactly as the README tells
 * users to: every base under `/v3`, the legacy upload endpoint in full, and the gateway set after
 * construction (the constructor would turn `http://…` into `https://http://…`).
 */
export function pinataFor(url: string, jwt: string): PinataSDK {
  const pinata = new PinataSDK({
    pinataJwt: jwt,
    endpointUrl: `${url}/v3`,
    uploadUrl: `${url}/v3`,
    legacyUploadUrl: `${url}/pinning/pinFileToIPFS`,
  })
  pinata.config!.pinataGateway = url
  return pinata
}
