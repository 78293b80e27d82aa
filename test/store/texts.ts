/** Message text the tests can recompute from a message id: a few bytes to about 40 KB. */
export function messageText(id: string): string {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  const size = h % 7 === 0 ? 40_000 : 20 + (h % 3000);
  return `${id} `.repeat(Math.ceil(size / (id.length + 1))).slice(0, size);
}
