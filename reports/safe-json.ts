/**
 * JSON that can sit inside an HTML <script> element: every character that could end the element or open a
 * comment (<, >, &) and the two line separators JavaScript once rejected are written as \u escapes, so
 * student-controlled strings ("</script><script>…") stay data. JSON.parse reads it back unchanged.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
