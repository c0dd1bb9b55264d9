/**
 * The page's Content-Security-Policy allows <style> elements only with the nonce the gateway
 * put in `<meta name="csp-nonce">` (no 'unsafe-inline'). Radix's dialogs insert theirs through
 * react-style-singleton, which takes the nonce from get-nonce, which reads `__webpack_nonce__`:
 * set here, before anything renders.
 */
export function adoptCspNonce(): void {
  const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
  if (nonce) (globalThis as { __webpack_nonce__?: string }).__webpack_nonce__ = nonce;
}
