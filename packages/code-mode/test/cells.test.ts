// Cells in a real host process: output, tool calls, failures with positions, exit, yields, and the
// escape suite — each attempt refused or bounded, and the host still serving the next cell.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeModeHost, type CellTool } from '../src/index.js';

/** A low call cap, so the runaway loop stays quick. */
const MAX_CALLS = 50;
// One host for the file: every cell gets a fresh isolate anyway, and the suite checks the host survives them all.
let host: CodeModeHost;
let nextId = 1;

beforeAll(() => {
  host = new CodeModeHost({ limits: { cpuSliceMs: 500, memoryBytes: 32 * 1024 * 1024 }, maxCallsPerCell: MAX_CALLS });
});
afterAll(() => host.close());

const echo: CellTool = { name: 'echo', description: 'returns its arguments', call: (json) => Promise.resolve(JSON.stringify({ echoed: JSON.parse(json) as unknown })) };

async function runCell(source: string, tools: readonly CellTool[] = [echo], store = new Map<string, string>()) {
  const run = host.start({ id: nextId++, source, tools, store });
  return run.report(20_000);
}

const texts = (report: { items: readonly { type: string; text?: string }[] }) => report.items.map((item) => item.text);

describe('code-mode cells', () => {
  it('prints with text(), calls tools with JSON in and out, and lists them in ALL_TOOLS', async () => {
    const report = await runCell('const r = await tools.echo({ n: 1 });\ntext(r);\ntext(r.echoed.n + 1);\ntext(ALL_TOOLS.map((t) => t.name).join(","));\ntext(undefined);');
    expect(report.status).toBe('completed');
    expect(texts(report)).toEqual(['{"echoed":{"n":1}}', '2', 'echo', 'undefined']);
  });

  it('fails with the error, its position in exec_main.mjs, and the output before it', async () => {
    const report = await runCell('text("before");\nnull.x;');
    expect(report.status).toBe('failed');
    expect(texts(report)).toEqual(['before']);
    expect(report.error).toMatch(/^TypeError: .*\n\s+at exec_main\.mjs:2:/);
    const syntax = await runCell('this is not js(');
    expect(syntax).toMatchObject({ status: 'failed', error: expect.stringMatching(/^SyntaxError: /) as string });
  });

  it("rejects a tool's failure inside the cell, where it can be caught", async () => {
    const failing: CellTool = { name: 'boom', description: '', call: () => Promise.reject(new Error('no such file')) };
    const report = await runCell('try { await tools.boom({}); } catch (e) { text("caught: " + e.message); }', [failing]);
    expect(report).toMatchObject({ status: 'completed' });
    expect(texts(report)).toEqual(['caught: no such file']);
  });

  it('ends at exit(), keeps store() values for later cells, and passes notify() on', async () => {
    const store = new Map<string, string>();
    const notes: string[] = [];
    const first = host.start({ id: nextId++, source: 'store("k", { v: 2 }); notify("note"); text(load("k").v); exit(); text("after");', tools: [], store, onNotify: (text) => notes.push(text) });
    const report = await first.report(20_000);
    expect(report.status).toBe('completed');
    expect(texts(report)).toEqual(['2']);
    expect(notes).toEqual(['note']);
    expect(texts(await runCell('text(JSON.stringify(load("k")));', [], store))).toEqual(['{"v":2}']);
  });

  it('yields after the yield time with the output so far, then reports the rest; a terminated cell says so', async () => {
    const run = host.start({ id: nextId++, source: 'text("a");\nawait new Promise((r) => setTimeout(r, 1500));\ntext("b");', tools: [], store: new Map() });
    const early = await run.report(50);
    expect(early.status).toBe('running');
    expect(texts(early)).toEqual(['a']);
    const rest = await run.report(20_000);
    expect(rest.status).toBe('completed');
    expect(texts(rest)).toEqual(['b']);

    const forever = host.start({ id: nextId++, source: 'await new Promise(() => {});', tools: [], store: new Map() });
    expect((await forever.report(50)).status).toBe('running');
    await forever.terminate();
    expect((await forever.report(0)).status).toBe('terminated');
  });

  it('yield_control() hands the output over at once', async () => {
    const run = host.start({ id: nextId++, source: 'text("now"); yield_control(); await new Promise((r) => setTimeout(r, 300)); text("later");', tools: [], store: new Map() });
    const first = await run.report(20_000);
    expect(first.status).toBe('running');
    expect(texts(first)).toEqual(['now']);
    expect(texts(await run.report(20_000))).toEqual(['later']);
  });
});

describe('the escape suite', () => {
  it('has no process, require, fetch, console or WebAssembly, and imports nothing', async () => {
    const report = await runCell('text([typeof process, typeof require, typeof fetch, typeof console, typeof WebAssembly, typeof globalThis.__skein_host].join(","));');
    expect(texts(report)).toEqual(['undefined,undefined,undefined,undefined,undefined,undefined']);
    for (const source of ['import fs from "node:fs";', 'await import("node:fs");', 'await import("/etc/passwd");']) {
      const refused = await runCell(source);
      expect(refused.status).toBe('failed');
    }
  });

  it("reaches only the isolate's own global through constructor tricks", async () => {
    const report = await runCell('const g = (() => {}).constructor.constructor("return this")();\ntext([typeof g.process, typeof g.require, Object.keys(g).join("|")].join(","));');
    expect(report.status).toBe('completed');
    expect(texts(report)).toEqual(['undefined,undefined,']);
  });

  it("cannot change what the bridge gives the next cell: tools and globals are frozen, and each cell has a fresh isolate", async () => {
    const report = await runCell('try { tools.echo = () => "forged"; } catch (e) { text(e.name); }\nObject.prototype.polluted = 1;\nArray.prototype.map = () => "forged";\ntext(JSON.stringify(await tools.echo({ a: 1 })));');
    expect(texts(report)).toEqual(['TypeError', '{"echoed":{"a":1}}']);
    expect(texts(await runCell('text(typeof ({}).polluted);'))).toEqual(['undefined']);
  });

  it("survives a cell that breaks its own promises, and refuses images and stores it must not pass on", async () => {
    const broken = await runCell('Promise.prototype.then = () => { throw new Error("broken"); };\ntext("still printed");');
    expect(texts(broken)).toEqual(['still printed']);
    const images = await runCell('for (const bad of ["file:///etc/passwd", { image_url: "https://example.com/a.png", detail: "huge" }]) { try { image(bad); } catch (e) { text(e.message); } }\nimage("https://example.com/a.png");');
    expect(images.items).toEqual([
      { type: 'input_text', text: 'image() takes a data:image/…;base64 URL or an https URL' },
      { type: 'input_text', text: 'image() detail is one of auto, low, high, original' },
      { type: 'input_image', image_url: 'https://example.com/a.png' },
    ]);
    const store = new Map<string, string>();
    const big = await runCell('try { store("big", "x".repeat(2 * 1024 * 1024)); } catch (e) { text(e.message); }', [], store);
    expect(texts(big)[0]).toMatch(/^store\(\) keeps values of at most/);
    expect(store.size).toBe(0);
    const longKey = await runCell('try { store("k".repeat(3000000), 1); } catch (e) { text(e.message); }', [], store);
    expect(texts(longKey)[0]).toBe('store() keys are at most 1024 characters');
    expect(store.size).toBe(0);
    expect(texts(await runCell('text("next");'))).toEqual(['next']);
    // Outputs are counted as well as characters: empty ones cost no characters but are held.
    // (It sleeps now and then, so a loaded machine cannot end it at the CPU slice first.)
    const many = await runCell('for (let i = 0; i < 10050; i++) { text(""); if (i % 250 === 0) await new Promise((resolve) => setTimeout(resolve, 0)); }');
    expect(many.status).toBe('completed');
    expect(many.items).toHaveLength(10_001);
    expect(texts(many).at(-1)).toBe('…50 more outputs were dropped: a cell holds at most 4194304 characters in 10000 outputs between answers');
  });

  it('bounds memory, a busy loop, and a runaway call loop; the host survives all three', async () => {
    // A 2 GB buffer, and a 512 MiB string in a 32 MiB isolate.
    const buffer = await runCell('new ArrayBuffer(2 * 1024 ** 3);');
    expect(buffer).toMatchObject({ status: 'failed', error: expect.stringMatching(/^RangeError/) as string });
    const memory = await runCell('const s = "x".repeat(2 ** 29);');
    expect(memory).toMatchObject({ status: 'failed', error: expect.stringMatching(/^InternalError: out of memory/) as string });
    const busy = await runCell('for (;;) {}');
    expect(busy).toMatchObject({ status: 'failed', error: expect.stringMatching(/ran for more than 500 ms/) as string });
    const calls = await runCell(`let refused = 0; for (let i = 0; i < ${MAX_CALLS + 5}; i++) { try { await tools.echo({ i }); } catch { refused++; } } text(refused);`);
    expect(texts(calls)).toEqual(['5']);
    expect(texts(await runCell('text("still here");'))).toEqual(['still here']);
  });
});
