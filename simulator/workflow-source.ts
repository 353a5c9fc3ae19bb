/**
 * Where a project's workflow files come from: the commits its git refs point to, and each commit's
 * message and `.eas/workflows/` files. Two implementations: `MemoryRepo` (memory-repo.ts) holds them in
 * memory, the default for tests, the demo and the CLI; `GitRepo` (git.ts) reads a real repository, only
 * when one is asked for (`--repo PATH`, `addProject({ repoPath })`). Which names are refs at all and
 * the order they are tried in (branch, tag, SHA) are written once, here.
 */

export interface WorkflowSource {
  /**
   * The commit that a fully qualified ref (`refs/heads/main`, `refs/tags/v1`) or a full or
   * abbreviated lowercase SHA (at least 4 hex digits, unambiguous) names; null when there is none.
   */
  commitOf(rev: string): Promise<string | null>;
  /** The commit's subject and body, without the trailing newline. */
  commitMessage(sha: string): Promise<string>;
  /** `.eas/workflows/<fileName>` at the commit; null when there is no such file. */
  workflowFile(sha: string, fileName: string): Promise<string | null>;
  /** What `GET /_sim/state` shows of it. */
  describe(): Record<string, unknown>;
}

export interface ResolvedRef {
  sha: string;
  /** `refs/heads/<b>`, `refs/tags/<t>`, the given fully qualified ref, or the full SHA for a SHA. */
  requestedGitRef: string;
}

/**
 * Characters git forbids in ref names (plus `@{`, `..`, whitespace, control characters). A gitRef
 * containing them cannot be a branch, tag or SHA, so it is never looked up (with git, `main~1` or
 * `main^` would otherwise resolve to something that is not what the spec allows).
 */
const FORBIDDEN_REF = /[\s~^:?*[\\\x00-\x1f\x7f]|\.\.|@\{|\/\/|\/$|\.lock$|\.$/;

/**
 * Resolves a branch name, tag, full or abbreviated commit SHA, or fully qualified `refs/...` ref.
 * Branches win over tags, and both over SHAs (as in git's own precedence). Null when none exists, and
 * for anything that cannot be a ref (a leading `-` never reaches git as an option).
 */
export async function resolveRef(source: WorkflowSource, ref: string): Promise<ResolvedRef | null> {
  if (ref.startsWith('-') || ref === '' || FORBIDDEN_REF.test(ref)) return null;
  if (ref.startsWith('refs/')) {
    const sha = await source.commitOf(ref);
    return sha ? { sha, requestedGitRef: ref } : null;
  }
  for (const prefix of ['refs/heads/', 'refs/tags/']) {
    const sha = await source.commitOf(prefix + ref);
    if (sha) return { sha, requestedGitRef: prefix + ref };
  }
  if (/^[0-9a-f]{4,64}$/i.test(ref)) {
    const sha = await source.commitOf(ref.toLowerCase());
    if (sha) return { sha, requestedGitRef: sha };
  }
  return null;
}
