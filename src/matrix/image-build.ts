/** What an image was built from, out of the labels scripts/docker/build-images.sh puts on it. */
export interface ImageBuild {
  suite: string;
  /** `name=version` of the server packages and the libraries under them, e.g. `mysql-server-core=9.7.4-2`. */
  packages: string[];
  builtAt: string | null;
}

/** Why a requested image is not there, out of build-images.sh's `<tag>.failed` record. */
export interface BuildFailure {
  image: string;
  failedAt: string | null;
  reason: string;
  /** The whole build log kept beside the record, when the build got that far. */
  logFile: string | null;
  logTail: string[];
}

const label = (labels: Record<string, string>, name: string) => labels[`org.auditbench.${name}`];

/** The build's suite and package versions; null for an image without them (official or older builds). */
export function imageBuildFromLabels(labels: Record<string, string> | null | undefined): ImageBuild | null {
  const suite = labels ? label(labels, 'suite') : undefined;
  if (!labels || !suite) return null;
  const packages = (label(labels, 'packages') ?? '').split(/\s+/).filter(Boolean);
  return { suite, packages, builtAt: label(labels, 'built-at') ?? null };
}

/** The record's file name, as build-images.sh makes it: `/` and `:` become `_`. */
export function buildRecordName(image: string): string {
  return `${image.replace(/[/:]/g, '_')}.failed`;
}

const tailMarker = '--- last lines of the build log ---';

/** Parses a `<tag>.failed` record: `key: value` lines, then the marker and the log's last lines. */
export function parseBuildFailure(text: string): BuildFailure | null {
  const [head = '', tail] = text.split(`${tailMarker}\n`);
  const fields = new Map<string, string>();
  for (const line of head.split('\n')) {
    const at = line.indexOf(': ');
    if (at > 0) fields.set(line.slice(0, at), line.slice(at + 2));
  }
  const image = fields.get('image');
  const reason = fields.get('reason');
  if (!image || !reason) return null;
  return {
    image,
    failedAt: fields.get('failed') ?? null,
    reason,
    logFile: fields.get('log') ?? null,
    logTail: (tail ?? '').split('\n').filter((line, i, all) => line !== '' || i < all.length - 1),
  };
}

/** One line per package for a column header: the server's own packages first, libraries after. */
export function describeBuild(build: ImageBuild): string {
  const server = build.packages.filter((p) => /^(mariadb|mysql)-server/.test(p));
  return [`Debian ${build.suite}`, ...(server.length > 0 ? server : build.packages)].join('\n');
}

/** What is known about a requested image before the matrix runs. */
export interface ImageFacts {
  /** Why no container can run here (no Docker engine), or null. */
  engineProblem: string | null;
  present: boolean;
  /** The record of its last failed build, if any. */
  failure: BuildFailure | null;
  /** What to do when the image is missing and no build failed (scripts/docker/build-images.sh TAG). */
  missingAdvice: string;
}

/** Why a requested image cannot be tried, with the build log's tail; null when it can. */
export function whyUnavailable(facts: ImageFacts): { reason: string; details: string[] } | null {
  if (facts.engineProblem) return { reason: facts.engineProblem, details: [] };
  if (facts.present) return null;
  if (!facts.failure) return { reason: facts.missingAdvice, details: [] };
  const { reason, failedAt, logFile, logTail } = facts.failure;
  const when = failedAt ? ` at ${failedAt}` : '';
  const log = logFile ? `; whole log: ${logFile}` : '';
  return { reason: `its image build failed${when}: ${reason}${log}`, details: logTail };
}
