// The lobby's API reference, rendered from /openapi.json by this page alone (no CDN: the CSP forbids it).
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const k of kids) e.append(k);
  return e;
};
const refName = (ref) => ref.split("/").pop();

function schemaText(s, depth = 0) {
  // A compact, readable form of a JSON Schema: types, enums, bounds and defaults.
  if (!s || typeof s !== "object") return "any";
  if (s.$ref) return refName(s.$ref);
  if (s.anyOf || s.oneOf) return (s.anyOf || s.oneOf).map((x) => schemaText(x, depth)).join(" | ");
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (s.type === "array") return `[${schemaText(s.items || (s.prefixItems || [])[0], depth)}]`;
  if (s.type === "object" && s.additionalProperties) return `{string: ${schemaText(s.additionalProperties, depth)}}`;
  let t = Array.isArray(s.type) ? s.type.join(" | ") : s.type || "any";
  const bounds = ["minimum", "maximum", "minLength", "maxLength"].filter((k) => k in s).map((k) => `${k} ${s[k]}`);
  if (bounds.length) t += ` (${bounds.join(", ")})`;
  return t;
}

function schemaTable(s) {
  const props = s.properties || {};
  const required = new Set(s.required || []);
  const rows = Object.entries(props).map(([name, p]) =>
    el("tr", {}, el("td", {}, el("code", {}, name)), el("td", {}, schemaText(p)),
      el("td", {}, required.has(name) ? "required" : "default" in p ? `default ${JSON.stringify(p.default)}` : ""),
      el("td", {}, p.description || "")));
  if (!rows.length) return el("p", {}, el("code", {}, schemaText(s)));
  return el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "field"), el("th", {}, "type"),
    el("th", {}, ""), el("th", {}, "what"))), el("tbody", {}, ...rows));
}

function operation(path, method, op, n) {
  const id = `op-${n}`;
  const sec = el("section", { id, class: "op", "data-method": method, "data-path": path },
    el("h2", {}, el("code", {}, `${method.toUpperCase()} ${path}`)), el("p", {}, op.summary || ""));
  if (op.security && op.security.length) sec.append(el("p", {}, "Needs a token: ", el("code", {}, "Authorization: Bearer …")));
  const params = op.parameters || [];
  if (params.length) {
    sec.append(el("h3", {}, "Parameters"), el("ul", {}, ...params.map((p) =>
      el("li", {}, el("code", {}, p.name), ` (${p.in}) `, schemaText(p.schema)))));
  }
  const body = op.requestBody && op.requestBody.content && op.requestBody.content["application/json"];
  if (body) {
    const s = body.schema || {};
    sec.append(el("h3", {}, "Request body: ", el("code", {}, schemaText(s))));
  }
  const codes = Object.entries(op.responses || {});
  if (codes.length) {
    sec.append(el("h3", {}, "Responses"), el("ul", {}, ...codes.map(([code, r]) =>
      el("li", {}, el("code", {}, code), ` ${r.description || ""}`))));
  }
  return [sec, el("li", {}, el("a", { href: `#${id}` }, `${method.toUpperCase()} ${path}`))];
}

async function main() {
  const status = document.getElementById("status");
  let doc;
  try {
    const r = await fetch("/openapi.json");
    doc = await r.json();
  } catch (e) {
    status.textContent = `Could not read /openapi.json: ${e}`;
    return;
  }
  document.getElementById("title").textContent = `${doc.info.title} — API ${doc.info.version}`;
  const ops = document.getElementById("ops");
  const toc = document.getElementById("toc");
  let n = 0;
  for (const [path, item] of Object.entries(doc.paths || {})) {
    for (const [method, op] of Object.entries(item)) {
      const [sec, li] = operation(path, method, op, n++);
      ops.append(sec);
      toc.append(li);
    }
  }
  const schemas = document.getElementById("schemas");
  for (const [name, s] of Object.entries((doc.components || {}).schemas || {})) {
    schemas.append(el("section", { class: "schema", id: `schema-${name}` }, el("h3", {}, name),
      el("p", {}, s.description || ""), schemaTable(s)));
  }
  status.textContent = `${n} operations.`;
  document.body.dataset.ready = "1";
}

main();
