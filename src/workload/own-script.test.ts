import { describe, expect, test } from 'vitest';
import { ownScriptProblem } from './own-script.ts';

const kv = `
function prepare() end
function thread_init() end
function event() end
`;

describe('ownScriptProblem', () => {
  test.for([
    ['event and prepare functions', kv],
    [
      'prepare as a command table',
      'sysbench.cmdline.commands = { prepare = {cmd_prepare} }\nfunction event() end',
    ],
    ['event assigned', 'event = function() end\nfunction prepare() end'],
  ] as const)('accepts %s', ([, text]) => {
    expect(ownScriptProblem(text, 'runs[0].traffic.script', 'kv.lua')).toBeNull();
  });

  test('names what is missing', () => {
    expect(ownScriptProblem('function thread_init() end', 'traffic.script', 'kv.lua')).toBe(
      "traffic.script: kv.lua cannot be measured: it needs function event() (one transaction; sysbench counts its calls) and a prepare command (it builds the script's schema in database auditbench)",
    );
  });

  test('refuses a script with its own report hooks', () => {
    const text = `${kv}\nsysbench.hooks.report_intermediate = function() end`;
    expect(ownScriptProblem(text, 'traffic.script', 'kv.lua')).toMatch(/standard report/);
  });
});
