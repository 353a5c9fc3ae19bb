/** Accounts, projects, actors (robot or user) and their access tokens; authentication and roles. */
import { randomBytes, randomUUID } from 'node:crypto';
import { ApiError, forbidden, unauthenticated } from './errors.js';
import type { WorkflowSource } from './workflow-source.js';

export type Role = 'viewer' | 'developer' | 'admin' | 'owner';
const ROLE_RANK: Record<Role, number> = { viewer: 1, developer: 2, admin: 3, owner: 4 };
export const ROLES = Object.keys(ROLE_RANK) as Role[];

/** Mutable on purpose: tests may flip `deviceSessions` or change the limits of an existing account. */
export interface Account {
  id: string;
  name: string;
  /** The device-session preview feature is enabled for this account. */
  deviceSessions: boolean;
  /** The account's session duration limit (the spec does not show its value; default 115). */
  maxDurationLimitMinutes: number;
  /** Used when a request omits `maxDurationMinutes` (capped by the limit). */
  defaultDurationMinutes: number;
}

export interface Project {
  id: string;
  name: string;
  account: Account;
  /** The repository the project is linked to (workflow files are read from it). */
  repository: WorkflowSource;
}

export interface Actor {
  id: string;
  username: string;
  robot: boolean;
  /** Role per account id. */
  roles: Map<string, Role>;
}

export interface AddAccountOptions {
  name?: string;
  deviceSessions?: boolean;
  maxDurationLimitMinutes?: number;
  defaultDurationMinutes?: number;
}

export interface AddTokenOptions {
  /** Account the role applies to. Without one the token is valid but has no role anywhere (403s). */
  account?: Account;
  /** Default `developer`. */
  role?: Role;
  /** Robot user token (default) or personal access token. */
  robot?: boolean;
}

export class Registry {
  readonly accounts = new Map<string, Account>();
  readonly projects = new Map<string, Project>();
  private readonly tokens = new Map<string, Actor>();

  addAccount(opts: AddAccountOptions = {}): Account {
    const account: Account = {
      id: randomUUID(),
      name: opts.name ?? `account-${this.accounts.size + 1}`,
      deviceSessions: opts.deviceSessions ?? true,
      maxDurationLimitMinutes: opts.maxDurationLimitMinutes ?? 115,
      defaultDurationMinutes: opts.defaultDurationMinutes ?? 60,
    };
    this.accounts.set(account.id, account);
    return account;
  }

  addProject(opts: { account: Account; repository: WorkflowSource; name?: string }): Project {
    const project: Project = {
      id: randomUUID(),
      name: opts.name ?? `project-${this.projects.size + 1}`,
      account: opts.account,
      repository: opts.repository,
    };
    this.projects.set(project.id, project);
    return project;
  }

  addToken(opts: AddTokenOptions = {}): string {
    const robot = opts.robot ?? true;
    const actor: Actor = {
      id: randomUUID(),
      username: `${robot ? 'robot' : 'user'}-${this.tokens.size + 1}`,
      robot,
      roles: new Map(),
    };
    if (opts.account) actor.roles.set(opts.account.id, opts.role ?? 'developer');
    const token = `${robot ? 'svc_robot_' : 'svc_pat_'}${randomBytes(18).toString('base64url')}`;
    this.tokens.set(token, actor);
    return token;
  }

  /** Gives an existing token a role on another account (or changes it). */
  grantRole(token: string, account: Account, role: Role): void {
    const actor = this.tokens.get(token);
    if (!actor) throw new Error('unknown token');
    actor.roles.set(account.id, role);
  }

  /** No header → 400 UNAUTHORIZED_ERROR; a header that is not a known bearer token → 401. */
  authenticate(header: string | undefined): Actor {
    if (header === undefined) {
      throw new ApiError(
        400,
        'UNAUTHORIZED_ERROR',
        'Authorization header is missing: send "Authorization: Bearer <ACCESS_TOKEN>"',
      );
    }
    const actor = this.actorOf(header);
    if (!actor) throw unauthenticated('The bearer token in the Authorization header is invalid or revoked');
    return actor;
  }

  /**
   * Who a request's Authorization header names, without refusing anything (the overview page counts
   * requests per token by it, never by the token's value): undefined for none or an unknown token.
   */
  actorOf(header: string | undefined): Actor | undefined {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    return match ? this.tokens.get(match[1]) : undefined;
  }

  /** 403 naming the permission unless the actor has at least `min` on the project's account. */
  requireRole(actor: Actor, project: Project, min: Role, permission: string): void {
    const role = actor.roles.get(project.account.id);
    if (!role || ROLE_RANK[role] < ROLE_RANK[min]) {
      throw forbidden(
        `Missing permission ${permission} on project ${project.id} of account "${project.account.name}": ` +
          `requires role ${min} or higher, token has ${role ? `role ${role}` : 'no role on this account'}`,
      );
    }
  }
}
