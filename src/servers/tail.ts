/** The last n non-empty lines of a text, for error messages. */
export function tailLines(text: string, n: number): string {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(-n)
    .join('\n');
}
