// Validates Kubernetes manifests offline against the API's schemas, as
// bundled by kubernetes-models (what a cluster's API server would check,
// without a cluster). Usage:
//   node scripts/check_k8s.mjs NODE_MODULES FILE.yaml...
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [modules, ...files] = process.argv.slice(2);
const load = (relative) => import(pathToFileURL(path.resolve(modules, relative)).href);
const YAML = await load("yaml/dist/index.js");

let failed = false;
for (const file of files) {
  for (const doc of YAML.parseAllDocuments(fs.readFileSync(file, "utf8"))) {
    if (doc.errors.length > 0) {
      console.error(`${file}: ${doc.errors[0].message}`);
      failed = true;
      continue;
    }
    const object = doc.toJS();
    const [group, version] = object.apiVersion.includes("/") ? object.apiVersion.split("/") : ["", object.apiVersion];
    const models = await load(`kubernetes-models/${group === "" ? "" : group + "/"}${version}/index.js`);
    const Kind = models[object.kind];
    if (!Kind) {
      console.error(`${file}: no schema for ${object.apiVersion} ${object.kind}`);
      failed = true;
      continue;
    }
    try {
      new Kind(object).validate();
      console.log(`${file}: ${object.apiVersion} ${object.kind} ${object.metadata.name}: valid`);
    } catch (error) {
      console.error(`${file}: ${object.kind} ${object.metadata.name}: ${error.message}`);
      failed = true;
    }
  }
}
process.exit(failed ? 1 : 0);
