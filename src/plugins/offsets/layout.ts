/**
 * The structure offsets a plugin reads from a server's private objects (e.g. `THD::query_id`), given to it as one
 * option of comma-separated numbers, and how auditbench can derive them for a server binary without debug symbols.
 * Data only: a profile names its layout; `derive-offsets.ts` does the work.
 */
export interface OffsetLayout {
  /** Names this layout in messages and in the cache, e.g. 'ThdOffsets v1.2.5'. */
  id: string;
  /** The [mysqld] option that carries the numbers (with `loose-`, so a server without the plugin still starts). */
  option: string;
  /** Field per position, `Type.member` (e.g. 'THD.query_id'); null for a position MariaDB builds leave 0. */
  fields: (string | null)[];
  /** Fields the layout does not carry but the reconciliation needs as anchors. */
  anchorsOnly: string[];
  /** Exported server functions that each read one field: the `operand`-th memory operand's displacement is it. */
  accessors: { fn: string; operand: number; field: string }[];
  /** The library this layout belongs to, and how to tell from its bytes that it has this layout. */
  library: {
    soname: string;
    /** What `knows` looks for, in a reader's words (for the line that says it was not found). */
    marker: string;
    knows: (strings: string[]) => boolean;
  };
}

/** Where one number came from (`binary`: read off the accessor's code; the rest placed from the source layout). */
export type OffsetOrigin = 'binary' | 'shifted' | 'one-sided' | 'source' | 'unused';

export interface DerivedOffset {
  /** `Type.member`, or null for an unused position. */
  field: string | null;
  value: number;
  /** The offset in the source tree's layout, when the field has one. */
  sourceValue: number | null;
  origin: OffsetOrigin;
}
