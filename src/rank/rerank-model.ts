// The goal rerank model the core evaluates (assembly/rerank.ts). Written by `npm run train`
// (train/train.ts) from the labelled data in train/data; do not edit by hand.
export const RERANK_MODEL = {
  version: 2,
  seed: 7,
  features: ["BIAS","OWN_RECALL","OWN_PRECISION","CTX_RECALL","TRI_RECALL","TRI_PRECISION","INTENT_MATCH","INTENT_OTHER","KIND_TEXT_INPUT","KIND_BUTTON","KIND_LINK","KIND_CHOICE","KIND_STATIC","ORDINAL_MATCH","ORDINAL_GROUP","IMPORTANCE","IN_VIEWPORT","OCCLUDED","DISABLED","NO_WORDS","CONCEPT_OWN","CONCEPT_LINK"],
  weights: [-2.070814,0.790807,0.664459,1.601974,0.777396,0.196797,0.516133,-0.1155,0.403883,0.29263,0.313165,0.040907,-0.91072,1.037302,0.474904,0.686843,-0.022474,-0.376124,0.0149,-0.028146,1.132891,0.674985],
  fusion: 0,
  minConfidence: 0,
  evaluation: {"heldOut":{"goals":301,"pages":46,"heuristic":{"r1":0.15282392026578073,"r5":0.5182724252491694,"r10":0.7973421926910299},"fused":{"r1":0.8538205980066446,"r5":0.9800664451827242,"r10":0.9900332225913622}},"realPages":{"goals":30,"pages":6,"heuristic":{"r1":0.03333333333333333,"r5":0.16666666666666666,"r10":0.2},"fused":{"r1":0.8,"r5":0.9,"r10":1}},"realDev":{"goals":246,"pages":41,"heuristic":{"r1":0.04878048780487805,"r5":0.13414634146341464,"r10":0.1951219512195122},"fused":{"r1":0.5,"r5":0.6951219512195121,"r10":0.7886178861788617}}},
};
