"""The workload fit: will a model fit this build, how long does training take, what does it
cost; What fits (catalog GPUs and cloud offers ranked for the job) and the advisor.

``workload_panel`` composes ``workload_form`` (the inputs), ``memory_bar`` (memory per GPU
against its VRAM) and ``workload_results`` (verdict, time, speed and cost). The numbers all
come from ``core.workload``.
"""
