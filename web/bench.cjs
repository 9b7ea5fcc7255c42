// Drives headless Chromium in real time over the built site (SITE_DIR: the
// target folder's web/, target/web by default) and prints what web/bench.sh
// reports, as JSON: the page's median render of the default scene, the first
// picture's time after load, and the frames the page draws per second during
// an export. Usage:
//   node web/bench.cjs SITE_DIR [WIDTH HEIGHT RUNS EXPORT_SIZE]
"use strict";
const fs = require("fs");
const http = require("http");
const path = require("path");
const puppeteer = require("puppeteer-core");

const [site, width = "1280", height = "720", runs = "9", exportSize = "8K"] =
  process.argv.slice(2);
if (!site) {
  console.error("usage: node web/bench.cjs SITE_DIR [WIDTH HEIGHT RUNS EXPORT_SIZE]");
  process.exit(2);
}

const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };

function serve(dir) {
  // Absolute, so that the check below holds for a relative SITE_DIR too.
  const root = path.resolve(dir);
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const file = path.join(root, name === "/" ? "index.html" : name);
    if (!file.startsWith(root) || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": types[path.extname(file)] || "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// The page logs "playa: first picture after N ms" (src/app/web/page.rs); a fresh
// browser context each time, so nothing comes from a cache.
async function firstPicture(browser, url) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  const shown = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no picture within 60 s")), 60000);
    page.on("console", (m) => {
      const found = /first picture after (\d+) ms/.exec(m.text());
      if (found) {
        clearTimeout(timer);
        resolve(Number(found[1]));
      }
      if (/could not start/.test(m.text())) reject(new Error(m.text()));
    });
  });
  await page.goto(url);
  const ms = await shown;
  return { context, page, ms };
}

(async () => {
  const server = await serve(path.resolve(site));
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      ...(process.getuid && process.getuid() === 0 ? ["--no-sandbox"] : []),
      "--enable-unsafe-swiftshader",
      "--use-angle=swiftshader",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  try {
    const loads = [];
    for (let i = 0; i < 3; i++) {
      const load = await firstPicture(browser, url);
      loads.push(load.ms);
      await load.context.close();
    }
    const { context, page } = await firstPicture(browser, url);
    const cdp = await page.createCDPSession();
    await cdp.send("Browser.setDownloadBehavior", { behavior: "deny" });
    const renderMs = await page.evaluate(
      async (w, h, n) => (await import("./playa_web.js")).render_ms(w, h, n),
      Number(width), Number(height), Number(runs),
    );
    // An export: frames drawn per second from when it runs until it ends.
    const fps = await page.evaluate(async (size) => {
      const m = await import("./playa_web.js");
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      m.bench_export(size);
      const asked = performance.now();
      while (!m.bench_exporting()) {
        if (performance.now() - asked > 10000) throw new Error("the export did not start");
        await sleep(5);
      }
      const start = performance.now();
      const frames = m.bench_frames();
      let rafs = 0;
      const tick = () => { rafs++; if (m.bench_exporting()) requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
      while (m.bench_exporting()) {
        if (performance.now() - start > 600000) throw new Error("the export took over 10 minutes");
        await sleep(20);
      }
      const seconds = (performance.now() - start) / 1000;
      return { fps: (m.bench_frames() - frames) / seconds, seconds, raf: rafs / seconds };
    }, exportSize);
    await context.close();
    console.log(JSON.stringify({
      render_ms: renderMs,
      first_picture_ms: median(loads),
      first_picture_loads_ms: loads,
      export_size: exportSize,
      export_seconds: fps.seconds,
      export_fps: fps.fps,
      export_raf_fps: fps.raf,
    }));
  } finally {
    await browser.close();
    server.close();
  }
})().catch((e) => {
  console.error(`bench: ${e.message}`);
  process.exit(1);
});
