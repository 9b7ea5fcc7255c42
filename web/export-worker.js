// playa's export worker: makes an export's bytes on its own instance of the
// page's wasm module, so the page keeps painting while it renders. The page
// sends { module, job } (its compiled WebAssembly.Module, or the address of
// playa_web_bg.wasm, and the job as text); this answers { progress } as the work goes on, then { bytes } or
// { error }.
import init, { run_export } from "./playa_web.js";

self.onmessage = async (event) => {
  const { module, job } = event.data;
  try {
    await init({ module_or_path: module });
    let last = 0;
    const bytes = run_export(job, (done) => {
      const now = performance.now();
      if (now - last > 50) {
        last = now;
        self.postMessage({ progress: done });
      }
    });
    self.postMessage({ bytes }, [bytes.buffer]);
  } catch (e) {
    self.postMessage({ error: String(e) });
  }
};
