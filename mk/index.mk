# mk/index.mk - reports/index.html: every workload's report, comparison
# and sweeps on one page, plots embedded (PNG, linking the SVG), readable
# from disk (`slabsim index`; docs/outputs.md).
#
#   make index      rewrite it now
#
# It is also kept up to date by `make sim` / `make report`, `make compare`
# and `make sweep` when REPORT is the default reports/W or a what-if's
# reports/W--... (a REPORT given on the command line, as the tests and the
# sweep's own sub-makes use, leaves it alone).

REPORTS_ROOT := $(patsubst %/,%,$(dir $(REPORT)))
INDEX := $(REPORTS_ROOT)/index.html
INDEX_AUTO := $(if $(SWEEP_POINT),,$(filter $(REPORTS_ROOT)/$(WHATIF_NAME) $(REPORTS_ROOT)/$(WHATIF_NAME)--%,$(REPORT)))

.PHONY: index
index: $(SLABSIM)
	$(call say,INDEX,$(INDEX))
	$(SLABSIM) index --dir $(REPORTS_ROOT)

$(INDEX): $(SLABSIM)
	$(call say,INDEX,$(INDEX))
	$(SLABSIM) index --dir $(REPORTS_ROOT)

# After the report's own files, the workload's own plots included (the
# index lists every PNG of the directory: one made after it would be
# missing, one being drawn would be listed under its temporary name).
# Only the files this make writes are
# prerequisites: listing every report's files would make `make sim`
# rebuild other goals' outputs (a comparison of other models) through
# their rules.  `make compare` and `make sweep` run `make index` at their
# end; `make index` after deleting a report.
ifneq ($(INDEX_AUTO),)
ifneq ($(filter $(WORKLOAD),$(WORKLOADS)),)
$(INDEX): $(REPORT_DATA) $(REPORT_PLOTS) $(WORKLOAD_PLOTS)
report: $(INDEX)
endif
endif
