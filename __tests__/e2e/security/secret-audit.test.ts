// The secret audit without debug output; the same audit with RUNNER_DEBUG=1 is secret-audit-debug.test.ts.
import { secretAudit } from './secret-audit.js';

secretAudit('without debug', {});
