/**
 * The names the commands, the summary and the inputs import for the service's resources. They are
 * defined once, in contract.ts (shared with the simulator); this module only passes them on.
 */
export {
  SESSION_TERMINAL,
  WORKFLOW_RUN_TERMINAL,
  JOB_TERMINAL,
  deviceSessionSchema,
  dispatchedRunSchema,
  remoteConfigSchema,
  workflowJobSchema,
  workflowRunSchema,
  type DeviceSession,
  type DispatchedRun,
  type RemoteConfig,
  type WorkflowJob,
  type WorkflowRun,
} from './contract.js';
