# analysis/analysis.mk - report.md, plot data and plots of $(WORKLOAD).
#
# Included by the top Makefile after workloads/$(WORKLOAD).mk, which sets
# RUN_SUMMARIES (the reports/W/runs/*/summary.csv it produces), VARIANTS,
# MODELS and CALIBRATION, and defines `sim` (depending on `report`).
#
#   make report                        report.md + summary.csv + plot data + plots
#   make report GNUPLOT=/opt/bin/gnuplot
#
# Outputs (docs/outputs.md): $(REPORT)/{report.md,summary.csv,waste.dat,
# latency.dat} from one `slabsim report` run, then waste and latency plots,
# PNG and SVG, from the .dat files.

GNUPLOT ?= gnuplot

# The seed table, when the workload has one.
SEED_TABLE := $(wildcard workloads/$(WORKLOAD).seed.csv)

REPORT_DATA := $(REPORT)/report.md $(REPORT)/summary.csv \
	$(REPORT)/waste.dat $(REPORT)/latency.dat
REPORT_PLOTS := $(foreach p,waste latency,$(REPORT)/$(p).png $(REPORT)/$(p).svg)

# Shell-quote one argument.
report_sq = '$(subst ','\'',$(1))'

# The command shown in report.md: the goals and command-line variables
# this make was given (WORKLOAD always spelled out).
# A workload's `sim` recipe runs `$(MAKE) report SIM_GOAL=sim`: show `sim`.
REPORT_COMMAND := make $(or $(SIM_GOAL),$(MAKECMDGOALS),sim) WORKLOAD=$(WORKLOAD) \
	$(filter-out WORKLOAD=% SIM_GOAL=%,$(MAKEOVERRIDES))

REPORT_ARGS := --workload $(WORKLOAD) --dir $(REPORT) \
	--command $(call report_sq,$(strip $(REPORT_COMMAND))) \
	$(if $(SEED_TABLE),--seed-table $(SEED_TABLE)) \
	$(if $(strip $(VARIANTS)),--variants $(call report_sq,$(strip $(VARIANTS)))) \
	$(if $(strip $(MODELS)),--models $(call report_sq,$(strip $(MODELS)))) \
	$(if $(strip $(CALIBRATION)),--calibration $(call report_sq,$(strip $(CALIBRATION)))) \
	$(if $(REPORT_BASELINE),--baseline $(REPORT_BASELINE))

# One run of `slabsim report` writes all four files (atomically).
$(REPORT_DATA) &: $(RUN_SUMMARIES) $(SEED_TABLE) $(SLABSIM)
	$(SLABSIM) report $(REPORT_ARGS)

# gnuplot writes to a temporary name first so a failed plot leaves nothing
# that make would take for finished.
define report_plot
$(REPORT)/$(1).png $(REPORT)/$(1).svg: $(REPORT)/$(1).%: $(REPORT)/$(1).dat analysis/$(1).gp
	$$(GNUPLOT) -e "datafile='$$<'; outfile='$$(basename $$@).tmp.$$*'; workload='$(WORKLOAD)'" \
		analysis/$(1).gp || { rm -f $$(basename $$@).tmp.$$*; exit 1; }
	mv -f $$(basename $$@).tmp.$$* $$@
endef
$(eval $(call report_plot,waste))
$(eval $(call report_plot,latency))

.PHONY: report
report: $(REPORT_DATA) $(REPORT_PLOTS)
