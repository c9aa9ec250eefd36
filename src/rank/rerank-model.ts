// The goal rerank model the core evaluates (assembly/rerank.ts). Written by `npm run train`
// (train/train.ts) from the labelled data in train/data; do not edit by hand.
export const RERANK_MODEL = {
  version: 1,
  seed: 7,
  features: ["BIAS","OWN_RECALL","OWN_PRECISION","CTX_RECALL","TRI_RECALL","TRI_PRECISION","INTENT_MATCH","INTENT_OTHER","KIND_TEXT_INPUT","KIND_BUTTON","KIND_LINK","KIND_CHOICE","KIND_STATIC","ORDINAL_MATCH","ORDINAL_GROUP","IMPORTANCE","IN_VIEWPORT","OCCLUDED","DISABLED","NO_WORDS"],
  weights: [-2.661659,2.133679,0.800089,1.568972,1.667888,0.228593,0.847341,-0.151434,0.459732,0.742804,0.505729,-0.028224,-1.598321,2.441097,0.83988,1.157702,0.265972,0,0,-0.004982],
  fusion: 0,
  minConfidence: 0,
  evaluation: {"heldOut":{"goals":301,"pages":46,"heuristic":{"r1":0.15282392026578073,"r5":0.5182724252491694,"r10":0.7973421926910299},"fused":{"r1":0.8438538205980066,"r5":0.9401993355481728,"r10":0.9667774086378738}},"realPages":{"goals":30,"pages":6,"heuristic":{"r1":0.03333333333333333,"r5":0.16666666666666666,"r10":0.2},"fused":{"r1":0.9666666666666667,"r5":1,"r10":1}}},
};
