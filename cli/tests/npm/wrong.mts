// What the generated types must refuse (cli/tests/npm.rs expects exactly
// these errors from `tsc --strict`): they are types, not `any`.
import { check } from 'agentc-rs';

const result = await check('.');
const errors: string = result.summary.errors;
const column = result.diagnostics[0].colum;
result.diagnostics[0].severity = 'note';
export { errors, column };
