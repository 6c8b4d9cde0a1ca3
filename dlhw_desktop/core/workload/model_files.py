"""Models from files, offline: a Hugging Face folder or its ``config.json``, safetensors
headers, a GGUF file. ``load_model_file(path)`` is the one entry point (the CLI's
``dlhw fit --model PATH`` and the desktop's File > Open model... both call it).

Only headers are read, never tensor data, so a 50 GB file opens as fast as a small one:

- **safetensors**: an 8-byte little-endian header length, then that many bytes of JSON
  naming every tensor's dtype, shape and byte range
  (https://github.com/huggingface/safetensors, "Format"). A sharded folder lists its
  shards in ``model.safetensors.index.json`` (``weight_map``; ``metadata.total_size``).
- **GGUF**: magic ``GGUF``, a version, the tensor and metadata counts, the metadata
  key/value pairs and the tensor table (name, dimensions, type, offset), then the data
  aligned to ``general.alignment`` (https://github.com/ggml-org/ggml/blob/master/docs/gguf.md).
  The header is parsed here, with the type sizes and names of the ``gguf`` package
  (``gguf.constants``: ``GGML_QUANT_SIZES``, ``LlamaFileType``), so every error can
  name its byte offset.

Bad input raises ``ModelFileError`` naming the field or byte offset; what can be
estimated is, the rest stays unknown (``None``) with a warning saying why.

This module is the dispatch; the readers are ``gguf_reader``, ``safetensors_reader`` and
``hf_config``, and the types they share are in ``model_file_types``.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from dlhw_desktop.core.workload.gguf_reader import load_gguf
from dlhw_desktop.core.workload.hf_config import load_hf_config
from dlhw_desktop.core.workload.model_file_types import (
    LoadedModel,
    ModelFileError,
    TensorInfo,
    open_model_file,
)
from dlhw_desktop.core.workload.models import ModelSpec
from dlhw_desktop.core.workload.safetensors_reader import (
    format_of_dtypes,
    read_safetensors_header,
    summarise_tensors,
)

__all__ = ["LoadedModel", "ModelFileError", "TensorInfo", "load_model_file",
           "looks_like_model_file"]


def looks_like_model_file(text: str) -> bool:
    """True when ``text`` names something on disk rather than a preset: it exists, ends
    like a model file, or is a path that is no preset name (``vit-b/16`` is a preset)."""
    if not text:
        return False
    if Path(text).exists() or text.endswith((".gguf", ".json", ".safetensors")):
        return True
    if "/" in text or os.sep in text:
        from dlhw_desktop.core.workload.errors import UnknownModelError
        from dlhw_desktop.core.workload.model_presets import preset

        try:
            preset(text)
        except UnknownModelError:
            return True
    return False


def load_model_file(path: str | os.PathLike[str]) -> LoadedModel:
    """A model from a GGUF file, a safetensors file, a Hugging Face folder or its
    ``config.json`` (with ``model.safetensors.index.json`` or safetensors shards beside it
    when present). Raises ``ModelFileError`` naming the field or byte offset."""
    p = Path(path)
    if not p.exists():
        raise ModelFileError(p, "no such file or folder")
    if p.is_dir():
        config = p / "config.json"
        if config.is_file():
            return load_hf_config(config, folder=True)
        gguf_files = sorted(g for g in p.glob("*.gguf") if not g.is_dir())
        if len(gguf_files) == 1:
            return load_gguf(gguf_files[0])
        raise ModelFileError(p, "a model folder needs a config.json (or exactly one .gguf "
                                "file)", field_name="config.json")
    with open_model_file(p) as f:  # a FIFO or a device would block or never end
        head = f.read(8)
    if head[:4] == b"GGUF":
        return load_gguf(p)
    if p.suffix == ".gguf":
        raise ModelFileError(p, f"not a GGUF file: the magic is {head[:4]!r}, not b'GGUF'",
                             offset=0)
    if p.suffix == ".safetensors":
        return _load_safetensors_file(p)
    if p.name.endswith(".json") or head[:1] in (b"{", b" ", b"\n"):
        return load_hf_config(p, folder=False)
    raise ModelFileError(p, "not a model file: expected a .gguf file, a .safetensors file, "
                            "a config.json or a Hugging Face model folder", offset=0)


def _load_safetensors_file(path: Path) -> LoadedModel:
    tensors, _ = read_safetensors_header(path)
    config = path.parent / "config.json"
    if config.is_file():
        loaded = load_hf_config(config, folder=True, shards=[path])
        return replace(loaded, source_kind="safetensors")
    params, nbytes, dtypes = summarise_tensors(tensors, None)
    if not params:
        raise ModelFileError(path, "no tensors in the header")
    fmt = format_of_dtypes(dtypes)
    model = ModelSpec("custom", path.stem, "custom", float(params), f"file {path}",
                      weight_bytes=float(nbytes), stored_format=fmt)
    return LoadedModel(model, str(path), "safetensors", params, nbytes, dtypes, None, fmt,
                       None, tuple(tensors.values()),
                       ("no config.json beside the file: architecture unknown, so the "
                        "KV cache and activations cannot be estimated",))
