import { Annotation } from "@langchain/langgraph";

export const DigestAnnotation = Annotation.Root({
  sources: Annotation<string[]>,
  pages: Annotation<string[]>,
  digest: Annotation<string>,
  approved: Annotation<boolean>,
});

// A type only: erased at run time, so a field of it is a plain value.
export type DigestState = typeof DigestAnnotation.State;
