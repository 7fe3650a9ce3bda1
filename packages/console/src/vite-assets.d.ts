/** Vite's `?url` imports: the URL of a file it copies into the build (pdf.js's worker). */
declare module '*?url' {
  const url: string
  export default url
}
