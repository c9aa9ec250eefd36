// The goal rerank model the core evaluates (assembly/rerank.ts). Written by `npm run train`
// (train/train.ts) from the labelled data in train/data; do not edit by hand.
export const RERANK_MODEL = {
  version: 3,
  seed: 7,
  features: ["BIAS","OWN_RECALL","OWN_PRECISION","CTX_RECALL","TRI_RECALL","TRI_PRECISION","INTENT_MATCH","INTENT_OTHER","KIND_TEXT_INPUT","KIND_BUTTON","KIND_LINK","KIND_CHOICE","KIND_STATIC","ORDINAL_MATCH","ORDINAL_GROUP","IMPORTANCE","IN_VIEWPORT","OCCLUDED","DISABLED","NO_WORDS","CONCEPT_OWN","CONCEPT_LINK","SECTION_RECALL","SECTION_ORDINAL"],
  weights: [-2.010768,0.76795,0.624336,1.446458,0.755243,0.223285,0.48495,-0.134689,0.376309,0.27087,0.292006,0.026562,-0.833538,1.043038,0.430951,0.653826,0.006264,-0.38536,0.034706,-0.016039,1.109679,0.680187,0.954554,0.99396],
  fusion: 0,
  minConfidence: 0,
  evaluation: {"heldOut":{"goals":313,"pages":46,"heuristic":{"r1":0.14696485623003194,"r5":0.4984025559105431,"r10":0.7699680511182109},"fused":{"r1":0.853035143769968,"r5":0.9808306709265175,"r10":0.9904153354632588}},"realPages":{"goals":30,"pages":6,"heuristic":{"r1":0.03333333333333333,"r5":0.16666666666666666,"r10":0.2},"fused":{"r1":0.8,"r5":0.9,"r10":1}},"realDev":{"goals":246,"pages":41,"heuristic":{"r1":0.04878048780487805,"r5":0.13414634146341464,"r10":0.1951219512195122},"fused":{"r1":0.5,"r5":0.7195121951219512,"r10":0.8089430894308943}}},
};
