import { readFile } from 'node:fs/promises';

/** A mount point as /proc/self/mountinfo writes it (field 5), its escapes (\040 for a space, …) decoded. */
export function mountPointIn(line: string): string | null {
  const field = line.split(' ')[4];
  return field === undefined
    ? null
    : field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

/** Mount points that are `dir` or inside it, compared as whole path components (never a substring or a pattern). */
export function mountsAtOrUnder(mountinfo: string, dir: string): string[] {
  return mountinfo
    .split('\n')
    .map(mountPointIn)
    .filter(
      (target): target is string => target !== null && (target === dir || target.startsWith(`${dir}/`)),
    );
}

/** The mounts at or under `dir` now, deepest first (the order to unmount them in). */
export async function mountsUnder(dir: string): Promise<string[]> {
  const mountinfo = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  return mountsAtOrUnder(mountinfo, dir).sort().reverse();
}
