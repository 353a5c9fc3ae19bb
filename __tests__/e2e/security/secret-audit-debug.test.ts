// The secret audit with RUNNER_DEBUG=1: debug lines carry more text from elsewhere.
import { secretAudit } from './secret-audit.js';

secretAudit('with RUNNER_DEBUG=1', { RUNNER_DEBUG: '1' });
