/** `<input>`, `<text>`: text ESLint lints without a file, so no package says which process runs it. */
export function isFileless(filename: string): boolean {
  return /^<[^>]*>$/.test(filename.split(/[\\/]/).pop() ?? '');
}
