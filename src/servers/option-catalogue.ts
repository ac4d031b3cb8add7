import { execa } from 'execa';
import { type OptionCatalogue, parseServerHelp } from '../config/server-help.ts';
import { findServerBinary } from './server-binary.ts';

const read = new Map<string, Promise<OptionCatalogue | null>>();

/** The option names of a server binary, from its `--no-defaults --verbose --help`; null when it prints none. */
export function optionCatalogueOf(binary: string): Promise<OptionCatalogue | null> {
  let catalogue = read.get(binary);
  if (!catalogue) {
    catalogue = execa(binary, ['--no-defaults', '--verbose', '--help'], {
      reject: false,
      stdin: 'ignore',
      timeout: 30_000,
    }).then(({ stdout }) => {
      const parsed = parseServerHelp(stdout);
      return parsed.names.size > 0 ? parsed : null;
    });
    read.set(binary, catalogue);
  }
  return catalogue;
}

/**
 * The catalogue of the local server binary (AUDITBENCH_MYSQLD, else PATH), or null where none is installed: option
 * names are then matched against auditbench's own rules only.
 */
export async function localOptionCatalogue(
  mysqldPath: string | null,
  searchPath: string,
): Promise<OptionCatalogue | null> {
  const binary = await findServerBinary(mysqldPath, searchPath).catch(() => null);
  return binary ? optionCatalogueOf(binary.path) : null;
}
