// DOT -> SVG at build time with the same Graphviz (viz.js, pinned in package.json)
// that the browser loads for live pictures. stdin: JSON [dot, ...]; stdout: JSON [svg, ...].
import { instance } from "@viz-js/viz"; // node_modules at the repository root

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const sources = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const viz = await instance();
const out = sources.map((dot) => {
  const result = viz.render(dot, { format: "svg" });
  if (result.status !== "success") {
    throw new Error(`Graphviz: ${result.errors.map((e) => e.message).join("; ")}\n${dot}`);
  }
  return result.output;
});
process.stdout.write(JSON.stringify(out));
