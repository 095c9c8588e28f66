"""The memory core: model, store, pipelines. Pure Python; never imports Qt."""
