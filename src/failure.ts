/**
 * An expected failure of the step: its message is the whole story for the user (what, why, where
 * to look), so it is reported with `core.setFailed` and no stack trace.
 */
export class ActionFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ActionFailure';
  }
}

/**
 * The message for any error that reaches an entrypoint. Known failures (inputs, the service,
 * the network, ActionFailure) speak for themselves; anything else is a defect of the action,
 * said so plainly, with its stack only in the debug log.
 */
export function describeFailure(error: unknown): { message: string; stack?: string } {
  if (error instanceof Error) {
    const known = [
      'ActionFailure',
      'InputError',
      'ServiceError',
      'NetworkError',
      'ResponseFormatError',
      'RetriesExhaustedError',
    ];
    if (known.includes(error.name)) return { message: error.message };
    return {
      message: `Unexpected error in the action (please report it): ${error.message}`,
      stack: error.stack,
    };
  }
  return { message: `Unexpected error in the action (please report it): ${String(error)}` };
}
