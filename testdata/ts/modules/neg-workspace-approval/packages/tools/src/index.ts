// The package's entry: the forum and CRM tools, re-exported whole.
export * from "./forum.js";
export * from "./crm.js";
