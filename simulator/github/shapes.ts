/**
 * The larger REST bodies, with every field GitHub's description of the route requires
 * (`@octokit/openapi`'s api.github.com description: `pull-request-simple`, `git-ref`), so that the
 * answers validate against it (__tests__/simulator/github-openapi.test.ts).
 */
import { nodeId, simpleUser, idOf, type PullRequest } from './model.js';

/** A repository as a pull request's `head.repo` and `base.repo` show it (`repository`, trimmed to what is required). */
function repositoryShape(api: string, repository: string): Record<string, unknown> {
  const [owner, name] = repository.split('/');
  const url = `${api}/repos/${repository}`;
  const id = idOf(repository);
  const templated = (path: string): string => `${url}/${path}`;
  return {
    id,
    node_id: nodeId('R', id),
    name,
    full_name: repository,
    owner: simpleUser({ login: owner, type: 'Organization' }),
    private: false,
    html_url: `https://github.com/${repository}`,
    description: null,
    fork: false,
    url,
    archive_url: templated('{archive_format}{/ref}'),
    assignees_url: templated('assignees{/user}'),
    blobs_url: templated('git/blobs{/sha}'),
    branches_url: templated('branches{/branch}'),
    collaborators_url: templated('collaborators{/collaborator}'),
    comments_url: templated('comments{/number}'),
    commits_url: templated('commits{/sha}'),
    compare_url: templated('compare/{base}...{head}'),
    contents_url: templated('contents/{+path}'),
    contributors_url: templated('contributors'),
    deployments_url: templated('deployments'),
    downloads_url: templated('downloads'),
    events_url: templated('events'),
    forks_url: templated('forks'),
    git_commits_url: templated('git/commits{/sha}'),
    git_refs_url: templated('git/refs{/sha}'),
    git_tags_url: templated('git/tags{/sha}'),
    git_url: `git://github.com/${repository}.git`,
    issue_comment_url: templated('issues/comments{/number}'),
    issue_events_url: templated('issues/events{/number}'),
    issues_url: templated('issues{/number}'),
    keys_url: templated('keys{/key_id}'),
    labels_url: templated('labels{/name}'),
    languages_url: templated('languages'),
    merges_url: templated('merges'),
    milestones_url: templated('milestones{/number}'),
    notifications_url: templated('notifications{?since,all,participating}'),
    pulls_url: templated('pulls{/number}'),
    releases_url: templated('releases{/id}'),
    ssh_url: `git@github.com:${repository}.git`,
    stargazers_url: templated('stargazers'),
    statuses_url: templated('statuses/{sha}'),
    subscribers_url: templated('subscribers'),
    subscription_url: templated('subscription'),
    tags_url: templated('tags'),
    teams_url: templated('teams'),
    trees_url: templated('git/trees{/sha}'),
    clone_url: `https://github.com/${repository}.git`,
    mirror_url: null,
    hooks_url: templated('hooks'),
    svn_url: `https://github.com/${repository}`,
    homepage: null,
    language: null,
    forks_count: 0,
    stargazers_count: 0,
    watchers_count: 0,
    size: 0,
    default_branch: 'main',
    open_issues_count: 0,
    is_template: false,
    topics: [],
    has_issues: true,
    has_projects: false,
    has_wiki: false,
    has_pages: false,
    has_downloads: false,
    archived: false,
    disabled: false,
    visibility: 'public',
    pushed_at: '2026-01-01T00:00:00Z',
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    allow_forking: true,
    forks: 0,
    open_issues: 0,
    watchers: 0,
    license: null,
  };
}

/** A pull request as REST gives it (`pull-request-simple`; `GET /pulls/:n` adds nothing the action reads). */
export function restPullRequest(api: string, pr: PullRequest, now: number): Record<string, unknown> {
  const repository = `${pr.owner}/${pr.repo}`;
  const url = `${api}/repos/${repository}/pulls/${pr.number}`;
  const html = `https://github.com/${repository}/pull/${pr.number}`;
  const id = idOf(`${repository}#${pr.number}`);
  const created = pr.created_at ?? new Date(now).toISOString();
  const side = (ref: string, sha: string): Record<string, unknown> => ({
    label: `${pr.owner}:${ref}`,
    ref,
    sha,
    user: simpleUser({ login: pr.owner, type: 'Organization' }),
    repo: repositoryShape(api, repository),
  });
  const link = (href: string): { href: string } => ({ href });
  return {
    url,
    id,
    node_id: nodeId('PR', id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: `${api}/repos/${repository}/issues/${pr.number}`,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${api}/repos/${repository}/pulls/comments{/number}`,
    comments_url: `${api}/repos/${repository}/issues/${pr.number}/comments`,
    statuses_url: `${api}/repos/${repository}/statuses/${pr.head}`,
    number: pr.number,
    state: 'open',
    locked: false,
    title: pr.title,
    user: simpleUser({ login: 'pr-author', type: 'User' }),
    body: null,
    labels: [],
    milestone: null,
    active_lock_reason: null,
    created_at: created,
    updated_at: created,
    closed_at: null,
    merged_at: null,
    merge_commit_sha: null,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    head: side(pr.headRef ?? `pr-${pr.number}`, pr.head),
    base: side(pr.baseRef ?? 'main', '0'.repeat(40)),
    _links: {
      self: link(url),
      html: link(html),
      issue: link(`${api}/repos/${repository}/issues/${pr.number}`),
      comments: link(`${api}/repos/${repository}/issues/${pr.number}/comments`),
      review_comments: link(`${url}/comments`),
      review_comment: link(`${api}/repos/${repository}/pulls/comments{/number}`),
      commits: link(`${url}/commits`),
      statuses: link(`${api}/repos/${repository}/statuses/${pr.head}`),
    },
    author_association: 'CONTRIBUTOR',
    auto_merge: null,
    draft: false,
  };
}

/** A ref as REST gives it (`git-ref`). */
export function restRef(api: string, repository: string, ref: string, sha: string): Record<string, unknown> {
  const url = `${api}/repos/${repository}/git/${ref}`;
  return {
    ref,
    node_id: nodeId('REF', idOf(`${repository}:${ref}`)),
    url,
    object: { type: 'commit', sha, url: `${api}/repos/${repository}/git/commits/${sha}` },
  };
}

/** A pull request as `GET /pulls/:n` gives it (`pull-request`: the list's fields and its counts). */
export function restPullRequestFull(api: string, pr: PullRequest, now: number): Record<string, unknown> {
  return {
    ...restPullRequest(api, pr, now),
    merged: false,
    mergeable: null,
    mergeable_state: 'unknown',
    merged_by: null,
    maintainer_can_modify: false,
    comments: 0,
    review_comments: 0,
    commits: 1,
    additions: 0,
    deletions: 0,
    changed_files: 0,
  };
}
