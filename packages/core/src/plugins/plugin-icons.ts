/**
 * Icons of the built-in marketplace plugins, as `data:` URLs: the marketplace's `image` is a URL a
 * client puts in an `<img src>`, and a URL that carries its own bytes works on every deployment
 * (no public URL to know, no route to serve, nothing fetched from a third party).
 */
const svgUrl = (body: string) =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${body}</svg>`)}`

/** A seal with a check mark: a signature attests a CID. */
export const ATTESTATION_ICON = svgUrl(
  '<circle cx="32" cy="32" r="28" fill="#4f46e5"/><path d="M20 33l8 8 16-18" fill="none" stroke="#fff" stroke-width="6"/>',
)

/** Two arrows in a circle: one CID swapped for another. */
export const HOT_SWAP_ICON = svgUrl(
  '<circle cx="32" cy="32" r="28" fill="#0d9488"/><path d="M18 26h26l-7-7M46 38H20l7 7" fill="none" stroke="#fff" stroke-width="5"/>',
)
