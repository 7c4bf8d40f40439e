// What the names `agentc lock --emit-dts` wrote for the example must refuse
// (cli/tests/npm.rs expects exactly these errors from `tsc --strict`).
import { loadLockfile } from 'agentc-rs';
import type { Names } from './agentc-names.js';

const lock = await loadLockfile<Names>('agentc.lock');
lock.agent('helpdsk');
lock.tool('lookup_ordr');
lock.skill('intake');
export { lock };
