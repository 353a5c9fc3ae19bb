/**
 * The family of errors a user should see. Their message is the whole story (what failed, why,
 * where to look), so entrypoints report them as they are, with no stack trace; any error outside
 * the family is a defect of the action and is reported as such. Recognised with `instanceof`.
 */
export class UserFacingError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** An expected failure of the step that is none of the more specific kinds below. */
export class ActionFailure extends UserFacingError {}

/** The message for any error that reaches an entrypoint, and its stack (for the debug log) when it is a defect. */
function describeFailure(error: unknown): { message: string; stack?: string } {
  if (error instanceof UserFacingError) return { message: error.message };
  const text = error instanceof Error ? error.message : String(error);
  return {
    message: `Unexpected error in the action (please report it): ${text}`,
    stack: error instanceof Error ? error.stack : undefined,
  };
}

/**
 * How main and post report a failure: one error annotation with the message, the stack (of a
 * defect) only in the debug log, and exit code 1. Returns the message, for the pull-request comment.
 */
export function reportFailure(
  io: { setFailed(message: string): void; debug(message: string): void },
  error: unknown,
): string {
  const { message, stack } = describeFailure(error);
  if (stack) io.debug(stack);
  io.setFailed(message);
  return message;
}
