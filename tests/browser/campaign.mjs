// End-to-end test of the campaign pages in headless Debian chromium, driven
// by playwright-core: two assessors judge a batch through the page (one by
// keys, one by buttons, with a skip and an undo); the exported labels equal
// what they clicked, the exported qrels equal the majority rule applied to
// the clicks, and the dashboard's numbers equal `qrelkit eval` and
// `qrelkit confidence` on the export. The test starts and stops its own
// server on a free loopback port.
// Usage: node campaign.mjs QK DATA_DIR WORK_DIR [SCREENSHOT_DIR]
import { chromium } from 'playwright-core';
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const [qk, data, work, shots] = process.argv.slice(2);
const db = `${work}/c.db`;
const run = (...args) => execFileSync(qk, args, { encoding: 'utf8' });
let failures = 0;
function check(what, want, got) {
  const ok = JSON.stringify(want) === JSON.stringify(got);
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${ok ? '' : `: got ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`}`);
  if (!ok) failures++;
}

run('campaign', 'init', db, '--runs', `${data}/A.run`, `${data}/B.run`, '--topics', `${data}/topics.tsv`,
  '--corpus', `${data}/corpus.jsonl`, '--budget', '3');
const token = { alice: run('campaign', 'person', db, 'alice').trim(), bob: run('campaign', 'person', db, 'bob').trim(),
  org: run('campaign', 'person', db, 'org', '--organiser').trim() };
run('campaign', 'plan', db, '--method', 'depth', '--batch', '2', '--overlap', '2');

// What each assessor answers: alice finds a, p, q relevant; bob a and p.
const opinion = { alice: new Set(['1 a', '2 p', '2 q']), bob: new Set(['1 a', '2 p']) };

const server = spawn(qk, ['campaign', 'serve', db, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
let log = '';
server.stderr.on('data', (d) => { log += d; });
const port = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => { out += d; const m = out.match(/listening\t(\d+)/); if (m) resolve(m[1]); });
  server.on('exit', (code) => reject(new Error(`server exited ${code}: ${log}`)));
  setTimeout(() => reject(new Error('server did not start')), 10000);
});
const base = `http://127.0.0.1:${port}`;
const browser = await chromium.launch({ executablePath: process.env.QK_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'] });
const clicked = [];
try {
  for (const who of ['alice', 'bob']) {
    const ctx = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    const page = await ctx.newPage();
    const external = [];
    page.on('request', (r) => { if (!r.url().startsWith(base)) external.push(r.url()); });
    await page.goto(`${base}/login?t=${token[who]}`);
    check(`${who} lands on /judge`, '/judge', new URL(page.url()).pathname);
    let first = true;
    while (await page.locator('#docno').count()) {
      const qid = await page.textContent('#qid'), docno = await page.textContent('#docno');
      if (first && who === 'alice' && shots) await page.screenshot({ path: `${shots}/campaign-judge.png` });
      if (first && who === 'bob') {
        // skip, then undo: the same document comes back
        await page.click('#skip');
        check('skip moves on', true, (await page.textContent('#docno')) !== docno || (await page.textContent('#qid')) !== qid);
        await page.click('#undo');
        check('undo brings the skipped document back', `${qid} ${docno}`,
          `${await page.textContent('#qid')} ${await page.textContent('#docno')}`);
      }
      first = false;
      const g = opinion[who].has(`${qid} ${docno}`) ? 1 : 0;
      if (who === 'alice') {
        await Promise.all([page.waitForNavigation(), page.keyboard.press(String(g))]);
      } else {
        await Promise.all([page.waitForNavigation(), page.click(`button[name="v"][value="${g}"]`)]);
      }
      clicked.push(`${qid} ${docno} ${who} ${g}`);
    }
    check(`${who} sees the end page`, 1, await page.locator('#done').count());
    check(`${who}'s page fetched nothing outside the server`, [], external);
    await ctx.close();
  }
  const ctx = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(`${base}/login?t=${token.org}`);
  check('organiser lands on /dashboard', '/dashboard', new URL(page.url()).pathname);
  if (shots) await page.screenshot({ path: `${shots}/campaign-dashboard.png`, fullPage: true });
  const rows = await page.$$eval('#runs tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  var dash = Object.fromEntries(rows.map((r) => [r[0], { map: r[1], est: r[2] }]));
  var dashSpent = await page.textContent('#budget-spent');
  var dashAgree = await page.textContent('#agreement');
  check('dashboard has three SVG charts', 3, await page.locator('svg').count());
  await ctx.close();
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await new Promise((r) => server.on('exit', r));
}

// the export against the clicks
run('campaign', 'export', db, '--out', `${work}/out`);
const lines = (f) => readFileSync(f, 'utf8').split('\n').filter((l) => l);
check('exported labels = the clicks', [...clicked].sort(), lines(`${work}/out/labels`).sort());
const votes = new Map();
for (const c of clicked) { // in click order: ties go to the earliest
  const [q, d, , g] = c.split(' ');
  if (!votes.has(`${q} ${d}`)) votes.set(`${q} ${d}`, []);
  votes.get(`${q} ${d}`).push(g);
}
const want = [...votes].map(([k, v]) => {
  const n = (g) => v.filter((x) => x === g).length;
  const best = v.reduce((b, g) => (n(g) > n(b) ? g : b), v[0]);
  const [q, d] = k.split(' ');
  return `${q} 0 ${d} ${best}`;
});
check('exported qrels = majority of the clicks', want.sort(), lines(`${work}/out/qrels`).sort());
const evalOut = run('eval', '-m', 'map', `${work}/out/qrels`, `${data}/A.run`, `${data}/B.run`);
const conf = run('confidence', `${work}/out/qrels`, `${data}/A.run`, `${data}/B.run`);
for (const r of ['A', 'B']) {
  check(`dashboard MAP of ${r} = qrelkit eval`, evalOut.match(new RegExp(`^${r}\\tmap\\tall\\t(\\S+)`, 'm'))[1], dash[r].map);
  check(`dashboard MTC estimate of ${r} = qrelkit confidence`, conf.match(new RegExp(`^${r}\\t(\\S+)`, 'm'))[1], dash[r].est);
}
check('dashboard judged = documents in the qrels', String(lines(`${work}/out/qrels`).length), dashSpent);
const overlap = [...votes.values()].filter((v) => v.length >= 2);
const agree = overlap.filter((v) => v.every((g) => g === v[0])).length / overlap.length;
check('dashboard agreement = share of equal clicks', agree.toFixed(4), dashAgree);
if (failures) { console.log(`${failures} failed\n${log}`); process.exit(1); }
