/**
 * Pages for people behind every address the action prints (run, device session, build, submission):
 * `GET` with `Accept: text/html` (what a browser sends) gets a read-only page rendered from the same
 * state the JSON routes read; any other client of those paths gets what it got before (a 404 JSON
 * error). An id that is not a UUID is a 400 page, an unknown one (or one under another project) a 404
 * page. The artifact links of finished builds download a small file, whatever the client.
 *
 * No token is asked for: the simulator's pages are for the person running it on their own machine,
 * and its request guard keeps other web pages out (request-guard.ts).
 */
import type { Project } from '../accounts.js';
import { notFound, requireUuid } from '../errors.js';
import type { ApiResponse, Route } from '../server.js';
import type { SessionManager } from '../sessions.js';
import type { WorkflowEngine } from '../workflows.js';
import {
  artifactFile,
  artifactName,
  findRecord,
  recordPage,
  recordStatus,
  type JobRecordOf,
  type RecordKind,
} from './build.js';
import { runPage } from './run.js';
import { sessionPage } from './session.js';

export interface PageDeps {
  sessions: SessionManager;
  workflows: WorkflowEngine;
}

const PROJECT = '/accounts/([^/]+)/projects/([^/]+)';

/** The address of a project's pages, as the service's dashboard URLs have it. */
const projectPath = (account: string, project: string): string =>
  `/accounts/${encodeURIComponent(account)}/projects/${encodeURIComponent(project)}`;

export function pageRoutes({ sessions, workflows }: PageDeps): Route[] {
  /**
   * The page of one thing under a project's address (`/accounts/a/projects/p/<folder>/<id>`): a 400
   * page for an id that is not a UUID, a 404 page for one not found, or found under another project.
   */
  const pageRoute = <T>(
    folder: string,
    idField: string,
    noun: string,
    find: (id: string) => { found: T; project: Project } | undefined,
    render: (found: T, projectUrl: string, id: string) => ApiResponse,
  ): Route => ({
    method: 'GET',
    pattern: new RegExp(`^${PROJECT}/${folder}/([^/]+)/?$`),
    page: true,
    handler(_ctx, [account, projectName, rawId]) {
      const id = requireUuid(rawId, idField);
      const hit = find(id);
      if (!hit || hit.project.account.name !== account || hit.project.name !== projectName)
        throw notFound(`No ${noun} with id ${id}`);
      return render(hit.found, projectPath(account, projectName), id);
    },
  });

  const withProject = <T>(found: T | undefined, project: Project | undefined) =>
    found && project ? { found, project } : undefined;

  const record = (kind: RecordKind) => (id: string) => {
    const found = findRecord(workflows, kind, id);
    return found && { found, project: found.project };
  };

  /** A finished build's artifact; what a submission submitted (its upstream build's, or its own upload). */
  const artifactOf = (found: JobRecordOf): string | null => {
    const name = artifactName(found, workflows.platformOf(found.run.id, found.job.key) ?? 'android');
    if (found.kind === 'build')
      return recordStatus(found.job) === 'finished' ? `/artifacts/builds/${found.id}/${name}` : null;
    const upstream = found.run.jobs.find(
      (job) => job.type === 'build' && job.buildId && found.job.requiredJobKeys.includes(job.key),
    );
    if (!upstream?.buildId) return `/artifacts/uploads/${found.id}/${name}`;
    return recordStatus(upstream) === 'finished' ? `/artifacts/builds/${upstream.buildId}/${name}` : null;
  };

  const artifactRoute = (folder: 'builds' | 'uploads', kind: RecordKind): Route => ({
    method: 'GET',
    pattern: new RegExp(`^/artifacts/${folder}/([^/]+)/([^/]+)$`),
    handler(_ctx, [rawId, name]) {
      const id = requireUuid(rawId, `${kind}Id`);
      const found = findRecord(workflows, kind, id);
      // A build's artifact exists once it finished; an upload as soon as its submission does.
      if (!found || (kind === 'build' && recordStatus(found.job) !== 'finished'))
        throw notFound(`No artifact ${name} of ${kind} ${id}`);
      return artifactFile(found, name);
    },
  });

  return [
    pageRoute(
      'workflows',
      'workflowRunId',
      'workflow run',
      (id) => withProject(workflows.get(id), workflows.projectOf(id)),
      (run, projectUrl) => runPage(run, projectUrl),
    ),
    pageRoute(
      'device-sessions',
      'deviceRunSessionId',
      'device run session',
      (id) => withProject(sessions.get(id), sessions.projectOf(id)),
      (session, _url, id) => sessionPage(session, sessions.requestOf(id)?.deviceIdentifier),
    ),
    pageRoute('builds', 'buildId', 'build', record('build'), (found, projectUrl) =>
      recordPage(found, projectUrl, artifactOf(found)),
    ),
    pageRoute('submissions', 'submissionId', 'submission', record('submission'), (found, projectUrl) =>
      recordPage(found, projectUrl, artifactOf(found)),
    ),
    artifactRoute('builds', 'build'),
    artifactRoute('uploads', 'submission'),
  ];
}
