/**
 * What GitHub refuses of a commit status or a new ref, with its words.
 *
 * Statuses (docs.github.com/en/rest/commits/statuses#create-a-commit-status):
 * - past 1,000 statuses of one commit and context: documented ("there is a limit of 1000 statuses
 *   per sha and context within a repository. Attempts to create more than 1000 statuses will result
 *   in a validation error"), with the words reported in openshift/release#6179:
 *   422 "Validation Failed", `errors: [{ resource: 'Status', code: 'custom', message: 'This SHA and
 *   context has reached the maximum number of statuses.' }]`;
 * - a description over 140 characters: reported (zalando/zappr#378, sclorg/testing-farm-as-github-action#187):
 *   the same shape, `field: 'description'`, "description is too long (maximum is 140 characters)";
 * - a state other than error, failure, pending, success: the description's enum; GitHub's words are
 *   not reported, the same shape is used (`field: 'state'`);
 * - a commit the repository does not have: reported (kubernetes/test-infra#21987, rust-lang/homu#141):
 *   422 "No commit found for SHA: <sha>" (GitHub's basic error shape, not "Validation Failed"), when
 *   the world asks for it (`knownCommitsOnly`).
 * Refs (docs.github.com/en/rest/git/refs#create-a-reference: "If it doesn't start with 'refs' and
 * have at least two slashes, it will be rejected"):
 * - an existing ref: 422 "Reference already exists";
 * - a malformed one: 422 "Reference name must contain at least three slash-separated components."
 *   (reported: octokit/octokit.rb#675);
 * - a ruleset restricting creation, when the world sets one: 422 "Repository rule violations found\n\nCannot
 *   create ref due to creations being restricted.\n\n" (reported: satisfactory-factories/application#67,
 *   Mic92/gitea-mq#91).
 */
import { errorBody, json, type GitHubAnswer, type PostedStatus } from './model.js';
import { contextKey, ofRepository } from './statuses.js';
import type { StandInState } from './state.js';

export const STATUS_STATES = ['error', 'failure', 'pending', 'success'];
export const MAX_DESCRIPTION = 140;
export const MAX_STATUSES_PER_CONTEXT = 1000;
const STATUS_DOCS = 'https://docs.github.com/rest/commits/statuses#create-a-commit-status';

function validationFailed(field: string | undefined, message: string): GitHubAnswer {
  return json(422, {
    message: 'Validation Failed',
    errors: [{ resource: 'Status', code: 'custom', ...(field ? { field } : {}), message }],
    documentation_url: STATUS_DOCS,
  });
}

/** GitHub's 422 for this status post, or null when GitHub takes it. */
export function statusRefusal(
  github: StandInState,
  repository: string,
  sha: string,
  body: Partial<PostedStatus>,
): GitHubAnswer | null {
  if (github.settings.knownCommitsOnly && !github.hasCommit(repository, sha))
    return json(422, { ...errorBody(`No commit found for SHA: ${sha}`, STATUS_DOCS), status: '422' });
  if (!STATUS_STATES.includes(String(body.state)))
    return validationFailed('state', `state is not included in the list`);
  if (typeof body.description === 'string' && [...body.description].length > MAX_DESCRIPTION)
    return validationFailed(
      'description',
      `description is too long (maximum is ${MAX_DESCRIPTION} characters)`,
    );
  const key = contextKey(typeof body.context === 'string' ? body.context : 'default');
  const same = github.statuses.filter(
    (status) => status.sha === sha && ofRepository(status, repository) && contextKey(status.context) === key,
  ).length;
  if (same >= MAX_STATUSES_PER_CONTEXT)
    return validationFailed(undefined, 'This SHA and context has reached the maximum number of statuses.');
  return null;
}

/** GitHub's 422 for this new ref, or null when GitHub creates it. */
export function refRefusal(
  github: StandInState,
  repository: string,
  ref: unknown,
  sha: unknown,
  docs: string,
): GitHubAnswer | null {
  const refused = (message: string): GitHubAnswer =>
    json(422, { ...errorBody(message, docs), status: '422' });
  if (typeof ref !== 'string' || !/^refs\/[^/]+\/.+/.test(ref) || /\/\/|\.\.|\s|\/$/.test(ref))
    return refused('Reference name must contain at least three slash-separated components.');
  if (typeof sha !== 'string' || !/^[0-9a-f]{40}$|^[0-9a-f]{64}$/.test(sha))
    return refused('Object does not exist');
  if (github.settings.knownCommitsOnly && !github.hasCommit(repository, sha))
    return refused('Object does not exist');
  if (github.settings.refRulesets.some((r) => r.toLowerCase() === repository.toLowerCase()))
    return refused(
      'Repository rule violations found\n\nCannot create ref due to creations being restricted.\n\n',
    );
  if (github.refShas.has(`${repository.toLowerCase()}:${ref}`)) return refused('Reference already exists');
  return null;
}
