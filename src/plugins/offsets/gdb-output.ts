/**
 * Pure readers of gdb's batch output, for the offset derivation: the offsets a probe's debug info gives
 * (`printf "THD.query_id %d\n", …` lines) and the memory operands of disassembled functions.
 */

/** `Type.member <offset>` lines (the probe's printf output) into a map; other lines are ignored. */
export function parseFieldOffsets(text: string): Map<string, number> {
  const offsets = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(\w+\.\w+) (-?\d+)$/.exec(line.trim());
    if (match?.[1] && match[2]) offsets.set(match[1], Number(match[2]));
  }
  return offsets;
}

// AT&T syntax: `0x3e68(%rdi)`, `-0x10(%rbp)` or `(%rax)` (displacement 0).
const memoryOperand = /(-?0x[0-9a-f]+)?\(%r[a-z0-9]+\)/g;

/**
 * Each function's memory-operand displacements in order, from `disassemble f` blocks ("Dump of assembler code for
 * function f:" … "End of assembler dump."). A function gdb could not find has no block and is absent.
 */
export function parseDisassembly(text: string): Map<string, number[]> {
  const functions = new Map<string, number[]>();
  let current: number[] | null = null;
  for (const line of text.split('\n')) {
    const start = /^Dump of assembler code for function (\S+):$/.exec(line.trim());
    if (start?.[1]) {
      current = [];
      functions.set(start[1], current);
    } else if (line.startsWith('End of assembler dump.')) {
      current = null;
    } else if (current) {
      // The address and <fn+n> labels come before a tab; operands after it.
      const instruction = line.split('\t').slice(1).join('\t');
      for (const [, displacement] of instruction.matchAll(memoryOperand)) {
        current.push(displacement ? Number.parseInt(displacement.replace('0x', ''), 16) : 0);
      }
    }
  }
  return functions;
}
